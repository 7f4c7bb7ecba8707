// Subjective callbacks (docs/chain.md §5, callbacks): every registered one runs; one that fails
// applies none of its writes, and the others still run. On TestChain.boot, with the tally service
// (tests/integration/services/callback-tally.as.ts) registered as two onBlock callbacks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coreSchema } from '../../../host-api/types/index.js';
import type { BootedChain } from '../../../runtime/testing/booted-chain.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';

interface Ctx { chain: BootedChain }
const test = suite<Ctx>('subjective callbacks');

const CallbackArgs = coreSchema.typeOf({ Object: { type: 'u8', objective: 'bool', act: 'Action' } });
const NO_ARGS = coreSchema.typeOf({ Object: {} }).pack({});
const ON_BLOCK = 1;
const TALLIES = ['tally-a', 'tally-b'];

test.before(async (ctx) => {
  const tally = await compiledEntry('tests/integration/services/callback-tally.as.ts');
  ctx.chain = await TestChain.boot({ services: TALLIES.map((account) => ({ account, code: tally.binary, registerServer: true })) });
  for (const service of TALLIES) {
    // A subjective callback has no sender.
    const rawData = CallbackArgs.pack({ type: ON_BLOCK, objective: false, act: { sender: 0n, service, method: 'tally', rawData: NO_ARGS } });
    const added = await ctx.chain.push([{ sender: 'transact', service: 'transact', method: 'addCallback', rawData }]);
    assert.is(added.error, null);
  }
});

test.after(async (ctx) => {
  await ctx.chain?.close();
});

const tally = async (chain: BootedChain, service: string) => Number((await chain.http({ host: `${service}.tsibase.localhost`, path: '/tally' })).text());
const tallies = (chain: BootedChain) => Promise.all(TALLIES.map((s) => tally(chain, s)));
const setFailing = async (chain: BootedChain, service: string, on: boolean) => {
  const pushed = await chain.push([{ sender: service, service, method: 'setFailing', rawData: coreSchema.typeOf({ Object: { on: 'bool' } }).pack({ on }) }]);
  assert.is(pushed.error, null);
};

test('each onBlock callback runs at every block', async ({ chain }) => {
  const before = await tallies(chain);
  chain.produceBlock();
  chain.produceBlock();
  const after = await tallies(chain);
  assert.equal(after, before.map((n) => n + 2));
});

test('a callback that fails applies none of its writes; the others still run; it counts again once it succeeds', async ({ chain }) => {
  await setFailing(chain, 'tally-a', true);
  const [frozen, running] = await tallies(chain);
  chain.produceBlock();
  chain.produceBlock();
  assert.equal(await tallies(chain), [frozen!, running! + 2], 'tally-a wrote its count, then failed: the count is undone');
  await setFailing(chain, 'tally-a', false);
  // The block that took setFailing(false) ran the callbacks already.
  const [resumed, again] = await tallies(chain);
  assert.is(resumed, frozen! + 1);
  chain.produceBlock();
  assert.equal(await tallies(chain), [resumed! + 1, again! + 1]);
});

test.run();
