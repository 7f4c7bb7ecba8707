// host-abi: every execution context starts its services from fresh instances. The engine reuses
// idle instances and resets them; a reset instance must be indistinguishable from a new one:
// memory image, heap, the unused end and every mutable global (each value type, v128 too, as
// left by the start function rather than by the initialisers). An instance whose memory grew
// goes only to queries, reset the same way with its memory's size kept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import type { WasmInstanceObject } from '../../../../runtime/wasm/admission/webassembly-api.js';
import { wat } from './admission-helpers.js';
import { FRESH, MODULE, call, state, withInstance as withEngineInstance } from './fresh-state.js';

const test = suite<{ chain: TestChain; code: Uint8Array }>('instance pool');

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.code = await wat(MODULE);
});
test.after(async ({ chain }) => chain.close());

const withInstance = <T>(chain: TestChain, code: Uint8Array, use: (instance: WasmInstanceObject) => T, acceptsGrown = false): T =>
  withEngineInstance(chain.engine, chain.store, code, use, acceptsGrown);

const memoryBytes = (instance: WasmInstanceObject) => (instance.exports.memory as { buffer: ArrayBuffer }).buffer.byteLength;

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

test('an instance whose memory grew is not reused by a context that needs its start-up size', ({ chain, code }) => {
  const grown = withInstance(chain, code, (instance) => {
    call(instance, 'grow');
    return instance;
  });
  withInstance(chain, code, (instance) => {
    assert.is.not(instance, grown);
    assert.is(memoryBytes(instance), 65536);
    assert.equal(state(instance), FRESH);
  });
});

test('a query may reuse an instance whose memory grew: reset, its grown memory all zero but the image', ({ chain, code }) => {
  let grownBytes = 0;
  const grown = withInstance(chain, code, (instance) => {
    call(instance, 'scribble');
    call(instance, 'grow');
    grownBytes = memoryBytes(instance);
    (instance.exports.store32 as (at: number, value: number) => void)(grownBytes - 4, 0x5a5a5a5a);
    return instance;
  }, true);
  assert.ok(grownBytes > 65536);
  withInstance(chain, code, (instance) => {
    assert.is.not(instance, grown, 'a context that needs the start-up size gets another instance');
  });
  withInstance(chain, code, (instance) => {
    assert.is(instance, grown, 'the grown instance is reused by a query');
    assert.is(memoryBytes(instance), grownBytes, 'with its memory\'s size');
    assert.equal(state(instance), FRESH);
    assert.is((instance.exports.load32 as (at: number) => number)(grownBytes - 4), 0, 'the grown part is zeroed');
  }, true);
});

test('a query takes a fresh instance when no grown one is idle', ({ chain, code }) => {
  const engine = new Engine();
  const fresh = withEngineInstance(engine, chain.store, code, (instance) => instance);
  withEngineInstance(engine, chain.store, code, (instance) => {
    assert.is(instance, fresh);
    assert.is(memoryBytes(instance), 65536);
    assert.equal(state(instance), FRESH);
  }, true);
});

test.run();
