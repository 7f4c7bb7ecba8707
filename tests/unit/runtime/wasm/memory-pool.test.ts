// host-abi §7: an instance's memory starts fresh in each context. The engine gives a new instance
// the memory of a dropped one when one is idle; what the instance gets must be exactly a new
// memory: its start-up size, its module's limits, zero but for what its data and start code wrote.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import type { WasmInstanceObject, WasmMemory } from '../../../../runtime/wasm/admission/webassembly-api.js';
import { wat } from './admission-helpers.js';
import { FRESH, MODULE, call, instantiateForContext, state, withInstance } from './fresh-state.js';

interface Context {
  chain: TestChain;
  code: Uint8Array;
  /** No instance pool: every instance is new, and every released one is dropped. */
  engine: Engine;
}
const test = suite<Context>('memory pool');

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.code = await wat(MODULE);
});
test.before.each((ctx) => {
  ctx.engine = new Engine({ pooling: false });
});
test.after(async ({ chain }) => chain.close());

const memoryOf = (instance: WasmInstanceObject) => instance.exports.memory as WasmMemory;

test('a new instance gets the memory of a dropped one, back in its fresh state', ({ chain, code, engine }) => {
  const first = withInstance(engine, chain.store, code, (instance) => {
    call(instance, 'scribble');
    assert.not.equal(state(instance), FRESH);
    return instance;
  });
  assert.is(engine.memoryFigures().wasmMemory, 65536, 'the dropped instance left its memory idle');
  withInstance(engine, chain.store, code, (instance) => {
    assert.is.not(instance, first, 'a new instance');
    assert.is(memoryOf(instance), memoryOf(first), 'with the dropped instance\'s memory');
    assert.equal(state(instance), FRESH);
    assert.ok(new Uint8Array(memoryOf(instance).buffer).every((byte, i) => byte === 0 || (i >= 1024 && i < 1031) || (i >= 2048 && i < 2052)),
      'zero but for the data segment and the start code\'s word');
  });
});

test('a memory that grew is not given to a new instance', ({ chain, code, engine }) => {
  const grown = withInstance(engine, chain.store, code, (instance) => {
    call(instance, 'grow');
    return memoryOf(instance);
  });
  assert.is(engine.memoryFigures().wasmMemory, 0);
  withInstance(engine, chain.store, code, (instance) => {
    assert.is.not(memoryOf(instance), grown);
    assert.is(memoryOf(instance).buffer.byteLength, 65536);
    assert.equal(state(instance), FRESH);
  });
});

test('an instance released twice gives its memory back once', ({ chain, code, engine }) => {
  const linked = instantiateForContext(engine, chain.store, code);
  linked.release();
  linked.release();
  assert.is(engine.memoryFigures().wasmMemory, 65536);
  const a = instantiateForContext(engine, chain.store, code);
  const b = instantiateForContext(engine, chain.store, code);
  assert.is.not(memoryOf(a.instance), memoryOf(b.instance), 'two live instances never share a memory');
  a.release();
  b.release();
});

test('a memory goes only to a module that imports the same limits', async ({ chain, code, engine }) => {
  const capped = await wat('(module (memory (export "memory") 1 4) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))');
  const dropped = withInstance(engine, chain.store, code, memoryOf);
  withInstance(engine, chain.store, capped, (instance) => {
    assert.is.not(memoryOf(instance), dropped);
    const grow = instance.exports.grow as (pages: number) => number;
    assert.is(grow(3), 1, 'grows to its own maximum');
    assert.is(grow(1), -1, 'and not past it');
  });
  withInstance(engine, chain.store, code, (instance) => assert.is(memoryOf(instance), dropped));
});

test('a memory of more than 32 pages is left to the garbage collector: zeroing it would cost more than a new one', async ({ chain, engine }) => {
  const large = await wat('(module (memory (export "memory") 33))');
  const dropped = withInstance(engine, chain.store, large, memoryOf);
  assert.is(engine.memoryFigures().wasmMemory, 0);
  withInstance(engine, chain.store, large, (instance) => assert.is.not(memoryOf(instance), dropped));
  const small = await wat('(module (memory (export "memory") 32))');
  const kept = withInstance(engine, chain.store, small, memoryOf);
  assert.is(engine.memoryFigures().wasmMemory, 32 * 65536);
  withInstance(engine, chain.store, small, (instance) => assert.is(memoryOf(instance), kept));
});

test.run();
