import { print } from '@bytecodealliance/jco-transpile/wasm-tools';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { DEFAULT_STACK_BYTES, ExecutionLimitError, ExecutionMeter } from '../../../../runtime/wasm/execution-meter.js';
import { WebAssemblyJs, instantiateMetered, instantiatePlain, thrown, wat } from './admission-helpers.js';

const BIG = { fuel: 1n << 50n };

function limitCode(meter: ExecutionMeter, error: unknown): string {
  assert.instance(error, WebAssemblyJs.RuntimeError, String(error));
  return meter.limitError()?.code ?? `no limit error for ${String(error)}`;
}

const spin = await wat(`(module
  (func $tick (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
  (func (export "spin") (loop $l (br $l)))
  (func (export "spinCalling") (local i32) (loop $l (local.set 0 (call $tick (local.get 0))) (br $l))))`);

test('an infinite loop ends with the fuel error, at the same point every run', () => {
  const remaining = new Set<bigint>();
  for (let run = 0; run < 3; run++) {
    const { exports, meter } = instantiateMetered(spin, { fuel: 100_000n });
    assert.is(limitCode(meter, thrown(() => exports.spin!())), 'WASM_FUEL_EXHAUSTED');
    assert.ok(meter.fuel.value < 0n);
    remaining.add(meter.fuel.value);
  }
  assert.is(remaining.size, 1);
});

test('an infinite loop that calls a function ends with the fuel error too', () => {
  const consumed = new Set<bigint>();
  for (let run = 0; run < 3; run++) {
    const { exports, meter } = instantiateMetered(spin, { fuel: 1_000_000n });
    assert.is(limitCode(meter, thrown(() => exports.spinCalling!())), 'WASM_FUEL_EXHAUSTED');
    consumed.add(meter.consumedFuel());
  }
  assert.is(consumed.size, 1);
  assert.match(new ExecutionMeter({ fuel: 7n }).limitError()?.message ?? 'none', /none/);
});

const recursion = await wat(`(module
  (global $depth (export "depth") (mut i32) (i32.const 0))
  (table 2 funcref)
  (elem (i32.const 0) $ping $pong)
  (func $down (export "down") (param i32) (result i32)
    (global.set $depth (i32.add (global.get $depth) (i32.const 1)))
    (i32.add (call $down (i32.add (local.get 0) (i32.const 1))) (i32.const 1)))
  (func $wide (export "wide") (param i64) (result i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64
           i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (global.set $depth (i32.add (global.get $depth) (i32.const 1)))
    (local.set 40 (local.get 0))
    (i64.add (call $wide (i64.add (local.get 0) (i64.const 1))) (local.get 40)))
  (type $t (func (param i32) (result i32)))
  (func $ping (param i32) (result i32) (call_indirect (type $t) (local.get 0) (i32.const 1)))
  (func $pong (param i32) (result i32) (call_indirect (type $t) (local.get 0) (i32.const 0)))
  (func (export "pingPong") (result i32) (call $ping (i32.const 0))))`);

test('unbounded recursion ends with the stack error decided by the budget, not by V8', () => {
  const depths = new Set<number>();
  for (let run = 0; run < 3; run++) {
    const { exports, meter } = instantiateMetered(recursion, BIG);
    assert.is(limitCode(meter, thrown(() => exports.down!(0))), 'WASM_STACK_OVERFLOW');
    assert.is(meter.limitError()!.message, `stack overflow: nested calls need more than the stack budget of ${DEFAULT_STACK_BYTES} bytes`);
    depths.add((exports.depth as unknown as { value: number }).value);
  }
  assert.is(depths.size, 1);
  const [depth] = depths;
  assert.ok(depth! > 1000, `depth ${depth}`);
});

test('frames with many locals are charged for their size', () => {
  const narrow = instantiateMetered(recursion, BIG);
  thrown(() => narrow.exports.down!(0));
  const wide = instantiateMetered(recursion, BIG);
  assert.is(limitCode(wide.meter, thrown(() => wide.exports.wide!(0n))), 'WASM_STACK_OVERFLOW');
  const depth = (e: Record<string, unknown>) => (e.depth as { value: number }).value;
  assert.ok(depth(wide.exports) * 2 < depth(narrow.exports), `${depth(wide.exports)} vs ${depth(narrow.exports)}`);
});

test('recursion with many v128 locals ends with the stack error', async () => {
  const locals = 'v128 '.repeat(200);
  const bytes = await wat(`(module
    (func $f (param v128) (result v128) (local ${locals})
      (local.set 200 (local.get 0))
      (i32x4.add (local.get 200) (call $f (i32x4.add (local.get 0) (local.get 200)))))
    (func (export "run") (drop (call $f (v128.const i64x2 1 2)))))`);
  const { exports, meter } = instantiateMetered(bytes, BIG);
  assert.is(limitCode(meter, thrown(() => exports.run!())), 'WASM_STACK_OVERFLOW');
});

test('mutual recursion through the table ends with the stack error', () => {
  const { exports, meter } = instantiateMetered(recursion, BIG);
  assert.is(limitCode(meter, thrown(() => exports.pingPong!())), 'WASM_STACK_OVERFLOW');
});

test('the stack budget is a parameter', () => {
  const small = instantiateMetered(recursion, { fuel: 1n << 40n, stackBytes: 4096 });
  thrown(() => small.exports.down!(0));
  const depth = (small.exports.depth as unknown as { value: number }).value;
  assert.ok(depth > 4 && depth < 64, `depth ${depth}`);
});

test('deep operand stacks count against the budget', async () => {
  const pushes = '(i64.const 1) '.repeat(300);
  const adds = 'i64.add '.repeat(300);
  const bytes = await wat(`(module (func $f (export "f") (param i64) (result i64)
    ${pushes} (call $f (local.get 0)) ${adds}))`);
  const { exports, meter } = instantiateMetered(bytes, BIG);
  assert.is(limitCode(meter, thrown(() => exports.f!(0n))), 'WASM_STACK_OVERFLOW');
});

const compute = await wat(`(module
  (memory (export "memory") 1)
  (global $last (export "last") (mut i32) (i32.const 0))
  (table 3 funcref)
  (elem (i32.const 0) $double $square $negate)
  (type $unary (func (param i32) (result i32)))
  (func $double (param i32) (result i32) (i32.shl (local.get 0) (i32.const 1)))
  (func $square (param i32) (result i32) (i32.mul (local.get 0) (local.get 0)))
  (func $negate (param i32) (result i32) (i32.sub (i32.const 0) (local.get 0)))
  (func (export "apply") (param i32 i32) (result i32)
    (call_indirect (type $unary) (local.get 1) (local.get 0)))
  (func $fib (export "fib") (param i32) (result i32)
    (if (result i32) (i32.lt_u (local.get 0) (i32.const 2))
      (then (local.get 0))
      (else (i32.add (call $fib (i32.sub (local.get 0) (i32.const 1))) (call $fib (i32.sub (local.get 0) (i32.const 2)))))))
  (func (export "factorial") (param i32) (result i64) (local i64)
    (local.set 1 (i64.const 1))
    (block $done (loop $next
      (br_if $done (i32.eqz (local.get 0)))
      (local.set 1 (i64.mul (local.get 1) (i64.extend_i32_u (local.get 0))))
      (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
      (br $next)))
    (local.get 1))
  (func (export "classify") (param i32) (result i32)
    (drop (call $square (local.get 0)))
    (block $big (block $two (block $one (block $zero
      (br_table $zero $one $two $big (local.get 0)))
      (return (i32.const 100)))
      (return (i32.const 101)))
      (br 1 (i32.const 102)))
    (global.set $last (local.get 0))
    (if (i32.gt_u (local.get 0) (i32.const 10)) (then (return (i32.const 999))))
    (i32.const 103))
  (func (export "pick") (param i32) (result i32) (local i32)
    ;; br_table and br_if straight to the function's label, with a value
    (drop (call $double (local.get 0)))
    (local.set 1 (block $inner (result i32) (br_table $inner $inner 1 (i32.const 7) (local.get 0))))
    (drop (br_if 0 (i32.const 50) (i32.eq (local.get 0) (i32.const 1))))
    (i32.add (local.get 1) (i32.const 1000)))
  (func (export "checksum") (param i32) (result i32) (local i32 i32)
    (memory.fill (i32.const 0) (i32.const 7) (local.get 0))
    (memory.copy (i32.const 1000) (i32.const 0) (i32.const 100))
    (loop $l
      (if (i32.lt_u (local.get 1) (local.get 0))
        (then
          (local.set 2 (i32.add (local.get 2) (i32.mul (i32.load8_u (local.get 1)) (local.get 1))))
          (local.set 1 (i32.add (local.get 1) (i32.const 1)))
          (br $l))))
    (select (local.get 2) (i32.const -1) (local.get 0))))`);

type Exports = Record<string, (...args: unknown[]) => unknown>;
function results(exports: Exports): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 3; i++) for (const x of [0, 3, -7, 1000]) out.push(exports.apply!(i, x));
  for (const n of [0, 1, 2, 10, 20]) out.push(exports.fib!(n));
  for (const n of [0, 1, 5, 20]) out.push(exports.factorial!(n));
  for (const n of [0, 1, 2, 3, 4, 11, 50]) {
    out.push(exports.classify!(n));
    out.push((exports.last as unknown as { value: number }).value);
  }
  for (const n of [0, 1, 100, 5000]) out.push(exports.checksum!(n));
  for (const n of [0, 1, 2, 9]) out.push(exports.pick!(n));
  return out;
}

test('a normal module computes the same results metered and unmetered', () => {
  const { exports, meter } = instantiateMetered(compute, BIG);
  assert.equal(results(exports), results(instantiatePlain(compute)));
  // every exit gave its stack frame back: return from nested blocks, br and br_table to the function
  assert.is(meter.stack.value, DEFAULT_STACK_BYTES);
});

test('fuel consumed is identical across runs', () => {
  const consumed = new Set<bigint>();
  for (let run = 0; run < 3; run++) {
    const { exports, meter } = instantiateMetered(compute, BIG);
    results(exports);
    consumed.add(meter.consumedFuel());
  }
  assert.is(consumed.size, 1);
});

test('fuel is one unit per instruction, structure being free', async () => {
  const bytes = await wat(`(module
    (func (export "three") (result i32) (i32.add (i32.const 1) (i32.const 2)))
    (func (export "loop") (param i32) (loop $l (br_if $l (local.tee 0 (i32.sub (local.get 0) (i32.const 1)))))))`);
  const { exports, meter } = instantiateMetered(bytes, BIG);
  exports.three!();
  assert.is(meter.consumedFuel(), 3n);
  exports.loop!(10);
  // each of the 10 iterations runs local.get, i32.const, i32.sub, local.tee, br_if
  assert.is(meter.consumedFuel(), 3n + 50n);
});

test('a budget that is exactly enough returns normally; one less traps', async () => {
  const bytes = await wat('(module (func (export "three") (result i32) (i32.add (i32.const 1) (i32.const 2))))');
  const enough = instantiateMetered(bytes, { fuel: 3n });
  assert.is(enough.exports.three!(), 3);
  assert.is(enough.meter.fuel.value, 0n);
  const short = instantiateMetered(bytes, { fuel: 2n });
  assert.is(limitCode(short.meter, thrown(() => short.exports.three!())), 'WASM_FUEL_EXHAUSTED');
});

test('fuel counts exactly across calls in and out of loops; recursion without loops runs out of fuel too', async () => {
  const bytes = await wat(`(module
    (func $inc (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
    (func $count (param i32) (result i32) (local i32)
      (loop $l (local.set 1 (call $inc (local.get 1))) (br_if $l (i32.lt_u (local.get 1) (local.get 0))))
      (local.get 1))
    (func $down (export "down") (param i32) (result i32) (i32.add (call $down (local.get 0)) (i32.const 1)))
    (func (export "run") (param i32) (result i32) (i32.add (call $count (local.get 0)) (i32.const 0))))`);
  const { exports, meter } = instantiateMetered(bytes, BIG);
  assert.is(exports.run!(10), 10);
  // run 4, count 7 per iteration and 1 after the loop, inc 3 per call
  assert.is(meter.consumedFuel(), 4n + 70n + 1n + 30n);
  // Recursion without loops runs out of fuel (not stack) when fuel is the smaller budget.
  const short = instantiateMetered(bytes, { fuel: 1000n, stackBytes: DEFAULT_STACK_BYTES });
  assert.is(limitCode(short.meter, thrown(() => short.exports.down!(0))), 'WASM_FUEL_EXHAUSTED');
});

test('bulk memory operations cost one unit per 64 bytes on top of their instruction', async () => {
  const bytes = await wat('(module (memory 1) (func (export "fill") (param i32) (memory.fill (i32.const 0) (i32.const 0) (local.get 0))))');
  const fuelFor = (n: number) => {
    const { exports, meter } = instantiateMetered(bytes, BIG);
    exports.fill!(n);
    return meter.consumedFuel();
  };
  assert.is(fuelFor(65536) - fuelFor(0), 1024n);
  assert.is(fuelFor(63) - fuelFor(0), 0n);
});

test('one meter is shared by all instances of a context', async () => {
  const callee = await wat('(module (func (export "work") (param i32) (result i32) (i32.mul (local.get 0) (i32.const 3))))');
  const caller = await wat(`(module (import "env" "getCurrentAction" (func $host (result i32)))
    (func (export "run") (result i32) (i32.add (call $host) (i32.const 1))))`);
  const meter = new ExecutionMeter(BIG);
  const instantiate = (bytes: Uint8Array, env: Record<string, unknown>) =>
    new WebAssemblyJs.Instance(new WebAssemblyJs.Module(admitModule(bytes).bytes), { env, ...meter.importObject() }).exports;
  const b = instantiate(callee, {});
  const a = instantiate(caller, { getCurrentAction: () => (b.work as (n: number) => number)(5) });
  assert.is((a.run as () => number)(), 16);
  // work: local.get, i32.const, i32.mul = 3; run: call, i32.const, i32.add = 3
  assert.is(meter.consumedFuel(), 6n);
});

test('other traps are not limit errors', async () => {
  const bytes = await wat('(module (func (export "div") (param i32) (result i32) (i32.div_u (i32.const 1) (local.get 0))))');
  const { exports, meter } = instantiateMetered(bytes, BIG);
  assert.instance(thrown(() => exports.div!(0)), WebAssemblyJs.RuntimeError);
  assert.is(meter.limitError(), undefined);
});

test('fuel the host charges during an import is seen by the calling code', async () => {
  const bytes = await wat(`(module (import "env" "getCurrentAction" (func $host (result i32)))
    (func (export "run") (loop $l (br_if $l (call $host)))))`);
  let calls = 0;
  let meter: ExecutionMeter | undefined;
  const instance = instantiateMetered(bytes, { fuel: 10_000n }, {
    getCurrentAction: () => {
      meter!.chargeFuel(1000n);
      return ++calls < 100 ? 1 : 0;
    },
  });
  meter = instance.meter;
  const error = thrown(() => instance.exports.run!());
  assert.instance(error, ExecutionLimitError);
  // 9 charges of 1000 plus the loop's own instructions leave less than 1000 for the 10th
  assert.is(calls, 9);
});

test('the host charges fuel and reserves stack through the meter', () => {
  const meter = new ExecutionMeter({ fuel: 10n, stackBytes: 10_000 });
  meter.chargeFuel(10n);
  const fuelError = thrown(() => meter.chargeFuel(1n));
  assert.instance(fuelError, ExecutionLimitError);
  assert.is((fuelError as ExecutionLimitError).code, 'WASM_FUEL_EXHAUSTED');
  meter.reserveStack(4096);
  meter.releaseStack(4096);
  meter.reserveStack(8192);
  assert.is((thrown(() => meter.reserveStack(4096)) as ExecutionLimitError).code, 'WASM_STACK_OVERFLOW');
});

test('host fuel charges (numbers) subtract exactly, past 2^32 too, and fail once the counter is below zero', () => {
  const big = 1n << 40n;
  const meter = new ExecutionMeter({ fuel: big + 5n });
  meter.chargeHostFuel(Number(big));
  assert.is(meter.fuel.value, 5n);
  meter.chargeHostFuel(5);
  assert.is(meter.consumedFuel(), big + 5n);
  const error = thrown(() => meter.chargeHostFuel(3));
  assert.is((error as ExecutionLimitError).code, 'WASM_FUEL_EXHAUSTED');
  assert.is(meter.fuel.value, -3n, 'the charge that crossed zero counts');
  // Two meters on separate counters do not share a charger.
  const other = new ExecutionMeter({ fuel: 7n });
  other.chargeHostFuel(7);
  assert.is(other.fuel.value, 0n);
  assert.is(meter.fuel.value, -3n);
});

test('the counter loads and reads exactly: numbers below 2^53 in magnitude, BigInts from there on', () => {
  const meter = new ExecutionMeter({ fuel: 1n });
  const fast = [0, 1, -3, 500_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
  for (const value of fast) {
    meter.loadFuel(value);
    assert.is(meter.fuel.value, BigInt(value), `loaded ${value}`);
    assert.is(meter.fuelValue(), value, `read ${value}`);
  }
  for (const value of [1n << 53n, (1n << 53n) + 1n, (1n << 62n) + 7n, -(1n << 60n) - 1n]) {
    meter.loadFuel(value);
    assert.is(meter.fuel.value, value, `loaded ${value}`);
    assert.is(meter.fuelValue(), value, `read ${value}`);
  }
  // Counted down by wasm from 2^53 + 3 (here by BigInt), it still reads back exactly.
  meter.fuel.value = (1n << 53n) + 3n;
  assert.is(meter.fuelValue(), (1n << 53n) + 3n);
});

test('the start function runs metered', async () => {
  const bytes = await wat('(module (func $start (loop $l (br $l))) (start $start))');
  const meter = new ExecutionMeter({ fuel: 1000n });
  const module = new WebAssemblyJs.Module(admitModule(bytes).bytes);
  const error = thrown(() => new WebAssemblyJs.Instance(module, meter.importObject()));
  assert.is(limitCode(meter, error), 'WASM_FUEL_EXHAUSTED');
});

test('debug names survive: functions keep theirs, globals move with their indices', async () => {
  const bytes = await wat('(module (global $g (mut i32) (i32.const 0)) (func $named (block $label (global.set $g (i32.const 1)))))');
  const text = await print(admitModule(bytes).bytes);
  assert.match(text, /\(func \$named/);
  assert.match(text, /\(global \$g \(;2;\) \(mut i32\)/);
  assert.not.match(text, /\$label/);
});

test.run();
