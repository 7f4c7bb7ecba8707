// host-abi: every execution context starts its services from fresh instances. The engine reuses
// idle instances and resets them; a reset instance must be indistinguishable from a new one:
// memory image, heap, the unused end and every mutable global (each value type, v128 too, as
// left by the start function rather than by the initialisers).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { ExecutionContext } from '../../../../runtime/wasm/execution-context.js';
import type { WasmInstanceObject } from '../../../../runtime/wasm/admission/webassembly-api.js';
import { wat } from './admission-helpers.js';

const test = suite<{ chain: TestChain; code: Uint8Array }>('instance pool');

// The start function moves $i from 7 to 8 and writes a word at 2048: the fresh state is after it.
const MODULE = `(module
  (memory (export "memory") 1)
  (data (i32.const 1024) "tsibase")
  (global $i (mut i32) (i32.const 7))
  (global $l (mut i64) (i64.const -5))
  (global $f (mut f32) (f32.const 1.5))
  (global $d (mut f64) (f64.const 2.25))
  (global $v (mut v128) (v128.const i32x4 1 2 3 4))
  (start $init)
  (func $init
    (global.set $i (i32.const 8))
    (i32.store (i32.const 2048) (i32.const 99)))
  (func (export "scribble")
    (global.set $i (i32.const -1))
    (global.set $l (i64.const 123456789012))
    (global.set $f (f32.const -3))
    (global.set $d (f64.const 1e300))
    (global.set $v (v128.const i32x4 9 9 9 9))
    (i64.store (i32.const 1024) (i64.const -1))
    (i32.store (i32.const 2048) (i32.const 0))
    (i32.store (i32.const 40000) (i32.const 0xa5a5a5a5))
    (i32.store (i32.const 65532) (i32.const 0xa5a5a5a5)))
  (func (export "grow") (drop (memory.grow (i32.const 1))))
  (func (export "i") (result i32) (global.get $i))
  (func (export "l") (result i64) (global.get $l))
  (func (export "f") (result f32) (global.get $f))
  (func (export "d") (result f64) (global.get $d))
  (func (export "v") (result i32) (i32x4.extract_lane 3 (global.get $v)))
  (func (export "load64") (param i32) (result i64) (i64.load (local.get 0)))
  (func (export "load32") (param i32) (result i32) (i32.load (local.get 0))))`;

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.code = await wat(MODULE);
});
test.after(async ({ chain }) => chain.close());

/** Instantiates the module through the chain's engine, as a context does, and hands the instance back after `use`. */
function withInstance<T>(chain: TestChain, code: Uint8Array, use: (instance: WasmInstanceObject) => T): T {
  const ctx = new ExecutionContext({ mode: 'rpc', store: chain.store, engine: chain.engine });
  const { fuel, stack } = chain.engine.meterGlobals;
  // Instantiation runs the module's metered start code: give it fuel and stack, as a running context does.
  fuel.value = 1n << 40n;
  stack.value = 1 << 20;
  const linked = chain.engine.instantiate(new Uint8Array(32).fill(7), () => code, ctx);
  try {
    return use(linked.instance);
  } finally {
    linked.release();
  }
}

/** The globals, then the memory at the image's data, the start function's word, the middle and the last word. */
function state(instance: WasmInstanceObject): unknown[] {
  const get = (name: string, ...args: number[]) => (instance.exports[name] as (...a: number[]) => unknown)(...args);
  return [get('i'), get('l'), get('f'), get('d'), get('v'), get('load64', 1024), get('load32', 2048), get('load32', 40000), get('load32', 65532)];
}
const call = (instance: WasmInstanceObject, name: string): void => (instance.exports[name] as () => void)();

const FRESH = [8, -5n, 1.5, 2.25, 4, new DataView(new TextEncoder().encode('tsibase\0').buffer).getBigInt64(0, true), 99, 0, 0];

test('a reused instance has the fresh memory and globals of every value type, v128 included', ({ chain, code }) => {
  const first = withInstance(chain, code, (instance) => {
    assert.equal(state(instance), FRESH, 'a new instance');
    call(instance, 'scribble');
    assert.not.equal(state(instance), FRESH);
    return instance;
  });
  withInstance(chain, code, (instance) => {
    assert.is(instance, first, 'the idle instance is reused');
    assert.equal(state(instance), FRESH, 'the reused instance');
  });
});

test('an instance whose memory grew is not reused', ({ chain, code }) => {
  const grown = withInstance(chain, code, (instance) => {
    call(instance, 'grow');
    return instance;
  });
  withInstance(chain, code, (instance) => {
    assert.is.not(instance, grown);
    assert.equal(state(instance), FRESH);
  });
});

test.run();
