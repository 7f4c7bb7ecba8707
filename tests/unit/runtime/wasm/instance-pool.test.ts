// host-abi: every execution context starts its services from fresh instances. The engine reuses
// idle instances and resets them; a reset instance must be indistinguishable from a new one:
// memory image, heap, the unused end and every mutable global (each value type, v128 too, as
// left by the start function rather than by the initialisers).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import type { WasmInstanceObject } from '../../../../runtime/wasm/admission/webassembly-api.js';
import { wat } from './admission-helpers.js';
import { FRESH, MODULE, call, state, withInstance as withEngineInstance } from './fresh-state.js';

const test = suite<{ chain: TestChain; code: Uint8Array }>('instance pool');

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.code = await wat(MODULE);
});
test.after(async ({ chain }) => chain.close());

const withInstance = <T>(chain: TestChain, code: Uint8Array, use: (instance: WasmInstanceObject) => T): T =>
  withEngineInstance(chain.engine, chain.store, code, use);

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
