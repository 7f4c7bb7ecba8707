// Which functions reserve stack (stack-charges.ts): those breaking the cycles of calls, the host's
// entry points and those deep enough; every frame stays counted by one of them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readModule } from '../../../../runtime/wasm/admission/binary/module-reader.js';
import { planMetering } from '../../../../runtime/wasm/admission/metering/plan-metering.js';
import { instantiateMetered, thrown, wat } from './admission-helpers.js';

const BIG_FUEL = 1n << 50n;

/** Stack charges and frame estimates by function name (`$name` in the text; imports are not named). */
async function chargesOf(text: string): Promise<{ charge: Record<string, number>; frame: Record<string, number> }> {
  const module = readModule(await wat(text));
  const { plans, stackCharges } = planMetering(module);
  const names = [...text.matchAll(/(?<!" )\(func \$(\w+)/g)].map((m) => m[1]!);
  assert.is(names.length, plans.length, 'every function is named');
  const charge: Record<string, number> = {};
  const frame: Record<string, number> = {};
  names.forEach((name, i) => {
    charge[name] = stackCharges[i]!;
    frame[name] = plans[i]!.frameBytes;
  });
  return { charge, frame };
}

test('helpers outside any cycle reserve nothing; the export reserves its frame and their deepest chain', async () => {
  const { charge, frame } = await chargesOf(`(module
    (func $main (export "main") (param i32) (result i32) (i32.add (call $a (local.get 0)) (call $c (local.get 0))))
    (func $a (param i32) (result i32) (call $b (local.get 0)))
    (func $b (param i32) (result i32) (local i64 i64 i64 i64) (i32.mul (local.get 0) (i32.const 3)))
    (func $c (param i32) (result i32) (i32.sub (local.get 0) (i32.const 1))))`);
  assert.is(charge.a, 0);
  assert.is(charge.b, 0);
  assert.is(charge.c, 0);
  assert.is(charge.main, frame.main! + frame.a! + frame.b!);
});

test('a function calling itself reserves its frame', async () => {
  const { charge, frame } = await chargesOf(`(module
    (func $main (export "main") (param i32) (result i32) (call $down (local.get 0)))
    (func $down (param i32) (result i32)
      (if (result i32) (local.get 0) (then (call $down (i32.sub (local.get 0) (i32.const 1)))) (else (i32.const 0)))))`);
  assert.is(charge.down, frame.down);
  assert.is(charge.main, frame.main);
});

test('the cycle an error path makes is broken at its hub, not at the allocator on the hot path', async () => {
  // An allocator that calls an abort handler when memory runs out; the handler formats its
  // message, which allocates: a real cycle (allocation can fail again inside the handler).
  const { charge, frame } = await chargesOf(`(module
    (import "env" "abortMessage" (func $hostAbort (param i32 i32)))
    (memory 1)
    (global $top (mut i32) (i32.const 1024))
    (func $main (export "main") (param i32) (result i32) (call $concat (call $alloc (local.get 0)) (call $alloc (i32.const 8))))
    (func $alloc (param i32) (result i32) (local i32)
      (local.set 1 (global.get $top))
      (global.set $top (i32.add (global.get $top) (local.get 0)))
      (if (i32.gt_u (global.get $top) (i32.const 65536)) (then (call $abort (i32.const 1))))
      (local.get 1))
    (func $concat (param i32 i32) (result i32) (local i32)
      (local.set 2 (call $alloc (i32.const 16)))
      (if (i32.eqz (local.get 2)) (then (call $abort (i32.const 2))))
      (local.get 2))
    (func $number (param i32) (result i32) (call $alloc (i32.const 12)))
    (func $abort (param i32)
      (call $hostAbort (call $concat (call $number (local.get 0)) (call $number (i32.const 0))) (i32.const 0))))`);
  assert.is(charge.alloc, 0);
  assert.is(charge.concat, 0);
  assert.is(charge.number, 0);
  assert.is(charge.abort, frame.abort! + frame.concat! + frame.alloc!);
  assert.is(charge.main, frame.main! + frame.concat! + frame.alloc!);
});

test('recursion through the table is broken too', async () => {
  const { charge } = await chargesOf(`(module
    (type $t (func (param i32) (result i32)))
    (table 2 funcref)
    (elem (i32.const 0) $ping $pong)
    (func $main (export "main") (result i32) (call $ping (i32.const 0)))
    (func $ping (param i32) (result i32) (call_indirect (type $t) (local.get 0) (i32.const 1)))
    (func $pong (param i32) (result i32) (call_indirect (type $t) (local.get 0) (i32.const 0))))`);
  assert.ok(charge.ping! > 0 || charge.pong! > 0, JSON.stringify(charge));
});

/** An export calling a chain of `length` helpers with `locals` i64 locals each (frames of ~8 bytes per local). */
function chain(length: number, locals: number): string {
  const helpers = Array.from({ length }, (_, i) => {
    const next = i + 1 < length ? `(call $h${i + 1} (local.get 0))` : '(local.get 0)';
    return `(func $h${i} (param i32) (result i32) (local ${'i64 '.repeat(locals)}) (i32.add ${next} (i32.const 1)))`;
  });
  return `(module (func $main (export "main") (param i32) (result i32) (call $h0 (local.get 0))) ${helpers.join(' ')})`;
}

test('a chain deeper than the uncounted depth accounts part way, each account covering what lies below it', async () => {
  const { charge, frame } = await chargesOf(chain(8, 100));
  const helpers = Array.from({ length: 8 }, (_, i) => `h${i}`);
  const accounting = helpers.filter((h) => charge[h]! > 0);
  assert.ok(accounting.length > 0 && accounting.length < helpers.length, JSON.stringify(charge));
  // Walking up from the end, each account reserves the frames from it down to the next account.
  let below = 0;
  for (const h of [...helpers].reverse()) {
    below += frame[h]!;
    if (charge[h]! > 0) {
      assert.is(charge[h], below, h);
      below = 0;
    }
  }
  assert.is(charge.main, frame.main! + below);
});

test('frames of helpers that reserve nothing still count against the budget', async () => {
  const bytes = await wat(chain(6, 100));
  const total = (await chargesOf(chain(6, 100))).charge;
  const reserved = Object.values(total).reduce((a, b) => a + b, 0);
  const short = instantiateMetered(bytes, { fuel: BIG_FUEL, stackBytes: reserved - 1 });
  thrown(() => short.exports.main!(1));
  assert.is(short.meter.limitError()?.code, 'WASM_STACK_OVERFLOW');
  const enough = instantiateMetered(bytes, { fuel: BIG_FUEL, stackBytes: reserved });
  assert.is(enough.exports.main!(1), 7);
});

/** Whether the calls among the functions that reserve nothing form a cycle (they must not). */
function uncountedCycle(callees: readonly (readonly number[])[], charges: readonly number[]): boolean {
  const state = new Array<number>(callees.length).fill(0); // 0 new, 1 on the path, 2 done
  for (let root = 0; root < callees.length; root++) {
    if (charges[root]! > 0 || state[root] !== 0) continue;
    const path: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const next = callees[top[0]]![top[1]++];
      if (next === undefined) {
        state[top[0]] = 2;
        path.pop();
      } else if (charges[next]! === 0) {
        if (state[next] === 1) return true;
        if (state[next] === 0) {
          state[next] = 1;
          path.push([next, 0]);
        }
      }
    }
  }
  return false;
}

test('a tangled module past the work cap still leaves no cycle without a reserving function', async () => {
  // 3000 functions in one ring, each also calling three others: one huge component.
  const n = 3000;
  let seed = 7;
  const other = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const bodies = Array.from({ length: n }, (_, i) => {
    const calls = [(i + 1) % n, other(), other(), other()].map((f) => `(call $f${f} (local.get 0))`);
    const sum = calls.reduce((acc, call) => `(i32.add ${acc} ${call})`, '(i32.const 0)');
    return `(func $f${i} (param i32) (result i32) (if (result i32) (local.get 0) (then ${sum}) (else (i32.const 1))))`;
  });
  const module = readModule(await wat(`(module (func (export "main") (param i32) (result i32) (call $f0 (local.get 0))) ${bodies.join(' ')})`));
  const { plans, stackCharges } = planMetering(module);
  const callees = plans.map((plan) => plan.directCallees);
  assert.not.ok(uncountedCycle(callees, stackCharges));
  assert.ok(stackCharges.some((c) => c === 0), 'some functions still reserve nothing');
});

test.run();
