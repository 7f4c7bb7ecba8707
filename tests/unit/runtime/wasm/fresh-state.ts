// Shared by the engine's reuse tests (instance pool, memory pool): a module whose fresh state
// covers memory (data segment, a word written by the start function, the rest zero) and every
// kind of mutable global, and a way to run one instance of it as a context does.
import { createHash } from 'node:crypto';
import type { Engine } from '../../../../runtime/wasm/engine.js';
import { ExecutionContext } from '../../../../runtime/wasm/execution-context.js';
import type { WasmInstanceObject } from '../../../../runtime/wasm/admission/webassembly-api.js';
import type { Store } from '../../../../runtime/db/store.js';
import type { LinkedInstance } from '../../../../runtime/wasm/linked-instance.js';

// The start function moves $i from 7 to 8 and writes a word at 2048: the fresh state is after it.
export const MODULE = `(module
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
  (func (export "load32") (param i32) (result i32) (i32.load (local.get 0)))
  (func (export "store32") (param i32 i32) (i32.store (local.get 0) (local.get 1))))`;

/**
 * Instantiates `code` through `engine` for a context of its own (`acceptsGrown`: a query that
 * takes instances whose memory grew); `release()` it as the context would.
 */
export function instantiateForContext(engine: Engine, store: Store, code: Uint8Array, acceptsGrown = false): LinkedInstance {
  const ctx = new ExecutionContext({ mode: 'rpc', store, engine, acceptsGrownMemory: acceptsGrown });
  const { fuel, stack } = engine.meterGlobals;
  // Instantiation runs the module's metered start code: give it fuel and stack, as a running context does.
  fuel.value = 1n << 40n;
  stack.value = 1 << 20;
  return engine.instantiate(createHash('sha256').update(code).digest(), () => code, ctx, acceptsGrown);
}

/** Instantiates `code` through `engine`, as a context does, and hands the instance back after `use`. */
export function withInstance<T>(engine: Engine, store: Store, code: Uint8Array, use: (instance: WasmInstanceObject) => T, acceptsGrown = false): T {
  const linked = instantiateForContext(engine, store, code, acceptsGrown);
  try {
    return use(linked.instance);
  } finally {
    linked.release();
  }
}

/** The globals, then the memory at the image's data, the start function's word, the middle and the last word. */
export function state(instance: WasmInstanceObject): unknown[] {
  const get = (name: string, ...args: number[]) => (instance.exports[name] as (...a: number[]) => unknown)(...args);
  return [get('i'), get('l'), get('f'), get('d'), get('v'), get('load64', 1024), get('load32', 2048), get('load32', 40000), get('load32', 65532)];
}
export const call = (instance: WasmInstanceObject, name: string): void => (instance.exports[name] as () => void)();

export const FRESH = [8, -5n, 1.5, 2.25, 4, new DataView(new TextEncoder().encode('tsibase\0').buffer).getBigInt64(0, true), 99, 0, 0];
