// Objective onBlock callbacks on real node processes (docs/system-services.md "Blocks"): registered
// with transact::addCallback, they run at the end of every block, on the producer and on a
// follower that re-executes its blocks (the callback writes a merkle event, so the follower
// derives the same ids only by running it too). A failing one aborts its block with the block's
// transactions: their pushers are told, and the producer builds the next block afresh, so the
// state that made the callback fail is never committed and the chain goes on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema } from '../../../host-api/index.js';
import { coreSchema } from '../../../host-api/types/index.js';
import { hexToBytes } from '../../../host-api/encoding/hex.js';
import { ChainClient, type ActionInput } from '../../../runtime/cli/chain-client.js';
import { deployActions } from '../../../host-api/boot/deploy-actions.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { headBlockNum, waitForBlocks } from '../../lib/chain-head.js';
import { waitForOutput, waitUntil } from '../../lib/node-network.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { testBundle } from '../../lib/test-bundle.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';
import { calledActions } from '../../../host-api/traces/trace-json.js';

interface Ctx { dir: string; producer: RunningNode; follower: RunningNode; client: ChainClient }
const test = suite<Ctx>('objective onBlock callbacks');
const BLOCK_MS = '200';
const ON_BLOCK = 1;

const AddCallbackArgs = coreSchema.typeOf({ Object: { type: 'u8', objective: 'bool', act: 'Action' } });
const Ticks = compileSchema({}).typeOf({ Object: { count: 'u32', firstBlock: 'u32', lastBlock: 'u32', refusing: 'bool', currentBlock: 'u32' } });
interface TicksValue { count: number; firstBlock: number; lastBlock: number; refusing: boolean; currentBlock: number }

const Nonce = compileSchema({}).typeOf({ Object: { nonce: 'u32' } });
const tickAction = { sender: 'transact', service: 'ticker', method: 'tick', rawData: compileSchema({}).typeOf({ Object: {} }).pack({}) };
let sent = 0;
/** A ticker action, with a nonce so that each transaction differs. */
const ticker = (method: string): ActionInput => ({ sender: 'ticker', service: 'ticker', method, rawData: Nonce.pack({ nonce: ++sent }) });

/** What `ticker::ticks` answers in a transaction of the producer's open block. */
async function ticksNow(client: ChainClient): Promise<TicksValue> {
  const { trace } = await client.push([ticker('ticks')], { waitFor: 'applied' });
  const run = calledActions(trace.actionTraces[0]!).find((t) => t.action.service === 'ticker');
  return Ticks.unpack(hexToBytes(run!.rawRetval)) as TicksValue;
}

async function headId(node: RunningNode, num?: number): Promise<{ num: number; id: string } | undefined> {
  const query = num === undefined ? '{ headBlock { id header { blockNum } } }' : `{ headBlock: block(num: ${num}) { id header { blockNum } } }`;
  const { headBlock } = await new ChainClient(node.api).graphql('explorer', query) as { headBlock: { id: string; header: { blockNum: number } } | null };
  return headBlock ? { num: headBlock.header.blockNum, id: headBlock.id } : undefined;
}

/** Waits until the follower has the producer's current head block, with the same id. */
async function followerCaughtUp({ producer, follower }: Ctx): Promise<void> {
  const target = (await headId(producer))!;
  await waitUntil(`follower at block ${target.num}`, async () => (await headId(follower, target.num))?.id === target.id, 30_000);
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-block-callbacks-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ctx.producer = await startNode(join(ctx.dir, 'producer'), ['-p', 'prod', '--boot', bundle, '--p2p', '--block-interval', BLOCK_MS]);
  ctx.follower = await startNode(join(ctx.dir, 'follower'), ['--peer', `http://127.0.0.1:${ctx.producer.port}`, '--block-interval', BLOCK_MS]);
  ctx.client = new ChainClient(ctx.producer.api);
  const code = await compiledEntry('tests/integration/services/block-ticker.as.ts');
  await ctx.client.push(deployActions('ticker', code.binary, { create: { insecure: true } }));
});

test.after(async (ctx) => {
  await Promise.all([ctx.producer, ctx.follower].map((n) => n?.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('an objective onBlock callback runs at the end of every block, on the producer and on a follower alike', async (ctx) => {
  const { client } = ctx;
  const rawData = AddCallbackArgs.pack({ type: ON_BLOCK, objective: true, act: tickAction });
  await client.push([{ sender: 'transact', service: 'transact', method: 'addCallback', rawData }]);
  await waitForBlocks(client, await headBlockNum(client), 3);
  const ticks = await ticksNow(client);
  assert.ok(ticks.count >= 3, `ran at ${ticks.count} blocks`);
  assert.is(ticks.lastBlock, ticks.currentBlock - 1, 'the last block closed ran it');
  assert.is(ticks.count, ticks.lastBlock - ticks.firstBlock + 1, 'it ran at every block since it was added');
  await followerCaughtUp(ctx);
});

test('a failing one aborts its block with its transactions; the producer goes on with the next block', async (ctx) => {
  const { client, producer } = ctx;
  const refused = await rejectionMessage(client.push([ticker('refuseBlocks')]), 'the block refusing its callback was committed');
  assert.match(refused, /block \d+ was aborted with its transactions: endBlock of block \d+ failed: .*ticker refuses block \d+/);
  await waitForOutput(producer, /block production: endBlock of block \d+ failed: .*ticker refuses block/);
  await waitForBlocks(client, await headBlockNum(client), 2);
  const ticks = await ticksNow(client);
  assert.is(ticks.refusing, false, 'the transaction that made it fail went with the aborted block');
  assert.is(ticks.lastBlock, ticks.currentBlock - 1);
  assert.is(ticks.count, ticks.lastBlock - ticks.firstBlock + 1, 'no block went without it: the aborted block number was built again');
  await followerCaughtUp(ctx);
});

test.run();
