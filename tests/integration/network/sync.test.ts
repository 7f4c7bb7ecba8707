// docs/p2p.md "What we build" 3-4, §3.4, §6.2: one producer and its followers, real node processes
// linked over loopback. Followers re-execute every block from genesis and keep up with the head;
// a transaction pushed to a follower reaches the producer and is final there; a follower killed
// with SIGKILL catches up from its database; a node of another chain is refused; a peer that
// sends a forged block loses its link while the nodes go on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import type { SignedBlock } from '../../../host-api/types/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { decodeMessage, encodeMessage } from '../../../runtime/network/messages/index.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { nodeProcessId, startNode, startNodeProcess, type RunningNode } from '../../lib/node-process.js';
import { waitForOutput, waitUntil } from '../../lib/node-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const test = suite<{ dir: string; bundle: string; producer: RunningNode; followers: RunningNode[] }>('block sync');
const BLOCK_MS = '200';

const urlOf = (node: RunningNode) => `http://127.0.0.1:${node.port}`;
const clientOf = (node: RunningNode) => new ChainClient(node.api);

interface Head { num: number; id: string }

async function headOf(node: RunningNode): Promise<Head> {
  const { headBlock } = await clientOf(node).graphql('explorer', '{ headBlock { id header { blockNum } } }') as { headBlock: { id: string; header: { blockNum: number } } };
  return { num: headBlock.header.blockNum, id: headBlock.id };
}

async function blockIdAt(node: RunningNode, num: number): Promise<string | undefined> {
  const { block } = await clientOf(node).graphql('explorer', `{ block(num: ${num}) { id } }`) as { block: { id: string } | null };
  return block?.id;
}

/** Waits until `follower` has the producer's block at the producer's current head (same id). */
async function caughtUp(follower: RunningNode, producer: RunningNode, timeoutMs = 30_000): Promise<Head> {
  const target = await headOf(producer);
  await waitUntil(`${follower.api} at block ${target.num}`, async () => (await blockIdAt(follower, target.num)) === target.id, timeoutMs);
  return target;
}

function startFollower(dir: string, name: string, producer: RunningNode): Promise<RunningNode> {
  return startNode(join(dir, name), ['--peer', urlOf(producer), '--block-interval', BLOCK_MS]);
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-sync-'));
  ctx.bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(ctx.bundle, await testBundle());
  ctx.producer = await startNode(join(ctx.dir, 'producer'), ['-p', 'prod', '--boot', ctx.bundle, '--p2p', '--block-interval', BLOCK_MS]);
  ctx.followers = [await startFollower(ctx.dir, 'f1', ctx.producer), await startFollower(ctx.dir, 'f2', ctx.producer)];
});

test.after(async (ctx) => {
  await Promise.all([ctx.producer, ...ctx.followers].map((n) => n?.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('followers re-execute the chain from genesis and keep up with the producer', async ({ producer, followers }) => {
  for (const follower of followers) await caughtUp(follower, producer);
  // The chain id is the genesis block's id on every node.
  const genesis = await blockIdAt(producer, 2);
  for (const follower of followers) assert.is(await blockIdAt(follower, 2), genesis);
  // And they keep following: a later head arrives too.
  const later = await caughtUp(followers[0]!, producer);
  assert.ok(later.num > 2);
  assert.match(followers[0]!.output(), /syncing|synced|committed block/);
  const metrics = (await adminRequest(followers[0]!, '/native/admin/metrics')).text();
  const figure = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1]);
  assert.is(figure('tsibase_p2p_links'), 1);
  assert.ok(figure('tsibase_blocks_received') >= later.num - 1, 'every block from 2 on was received');
  assert.ok(figure('tsibase_blocks_applied') >= later.num - 1);
  assert.is(figure('tsibase_blocks_refused'), 0);
  // The perf report counts the same (docs/administration.md "Performance report").
  const { network } = (await adminRequest(followers[0]!, '/native/admin/perf')).json() as { network: Record<string, string> };
  assert.is(network.links, '1');
  assert.ok(Number(network.blocksReceived) >= later.num - 1);
  assert.ok(Number(network.blocksApplied) >= later.num - 1);
  assert.is(network.blocksRefused, '0');
  const producerPerf = (await adminRequest(producer, '/native/admin/perf')).json() as { network: Record<string, string> };
  assert.is(producerPerf.network.links, String(followers.length), 'the producer has a link to each follower');
  assert.is(producerPerf.network.blocksReceived, '0', 'the producer makes its blocks');
});

test('a transaction pushed to a follower reaches the producer, is final there, and is seen on every node', async ({ producer, followers }) => {
  const follower = followers[1]!;
  await caughtUp(follower, producer);
  const newAccount = systemAction('root', 'accounts.newAccount', { name: 'forwarded', authService: 'auth-any', requireMatch: true });
  const pushed = await clientOf(follower).push([newAccount]);
  assert.is(pushed.trace.error, null, 'the trace is the one the block gave it');
  const query = '{ getAccount(account: "forwarded") { accountNum } }';
  for (const node of [producer, ...followers]) {
    const found = await waitUntil(`forwarded on ${node.api}`, async () => ((await clientOf(node).graphql('accounts', query)).getAccount as unknown) ?? undefined);
    assert.ok(found);
  }
  // The same name with another auth service: accounts refuses it (requireMatch).
  const conflicting = systemAction('root', 'accounts.newAccount', { name: 'forwarded', authService: 'auth-sig', requireMatch: true });
  const refused = await clientOf(follower).push([conflicting]).then(() => undefined, (err: Error) => err.message);
  assert.match(refused ?? '', /already exists|account exists/i, 'a transaction the chain refuses comes back with its error');
});

test('a follower killed with SIGKILL resumes from its database and catches up', async (ctx) => {
  const follower = ctx.followers[0]!;
  const before = await headOf(follower);
  process.kill(nodeProcessId(follower), 'SIGKILL');
  await new Promise((resolve) => follower.process.once('exit', resolve));
  // Let the producer get ahead.
  await waitUntil('producer ahead', async () => (await headOf(ctx.producer)).num > before.num + 5);
  const restarted = await startNodeProcess(join(ctx.dir, 'f1'), ['-l', `127.0.0.1:${follower.port}`, '--peer', urlOf(ctx.producer), '--block-interval', BLOCK_MS]);
  ctx.followers[0] = restarted;
  assert.ok((await headOf(restarted)).num >= before.num, 'it starts from what it had');
  await caughtUp(restarted, ctx.producer);
});

test('a node of another chain is refused and never mixed in', async (ctx) => {
  const other = await startNode(join(ctx.dir, 'other'), ['-p', 'prod', '--boot', ctx.bundle, '--block-interval', BLOCK_MS, '--peer', urlOf(ctx.producer)]);
  try {
    await waitForOutput(other, 'No common block found');
    const head = await headOf(ctx.producer);
    assert.is.not(await blockIdAt(other, 2), await blockIdAt(ctx.producer, 2), 'two chains');
    assert.is(await blockIdAt(ctx.producer, head.num), head.id, 'the producer kept its own chain');
  } finally {
    await other.stop();
  }
});

test('a peer that sends a forged block is disconnected, and the nodes go on', async ({ producer, followers, dir }) => {
  // A fresh node learns block 2 from a raw peer that changed it; it must refuse it and drop that peer.
  const fresh = await startNode(join(dir, 'fresh'), ['--p2p', '--block-interval', BLOCK_MS]);
  const ws = new WebSocket(`ws://127.0.0.1:${fresh.port}/native/p2p`);
  try {
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    let closed = false;
    ws.once('close', () => (closed = true));
    const genesis = await genesisFrom(producer);
    // A derived field changed: the block's execution does not give it, so its id cannot be re-derived.
    const trxMerkleRoot = genesis.block.header.trxMerkleRoot.slice();
    trxMerkleRoot[0]! ^= 1;
    const forged = { ...genesis, block: { ...genesis.block, header: { ...genesis.block.header, trxMerkleRoot } } };
    ws.send(encodeMessage({ kind: 'InitMessage', body: { version: 0 } }));
    ws.send(encodeMessage({ kind: 'HelloRequest', body: { xid: { id: new Uint8Array(32), num: 1 }, committed: true } }));
    ws.send(encodeMessage({ kind: 'BlockMessage', body: { block: forged } }));
    await waitUntil('the forging peer disconnected', async () => closed);
    await waitForOutput(fresh, /block 2 [0-9a-f]+ was refused: .*does not match/i);
    assert.is(fresh.process.exitCode, null, 'the node is still running');
    const head = await headOf(producer);
    await caughtUp(followers[1]!, producer);
    assert.ok((await headOf(producer)).num >= head.num, 'the producer goes on');
  } finally {
    ws.terminate();
    await fresh.stop();
  }
});

/** The genesis block as the producer streams it to a peer that has nothing. */
async function genesisFrom(producer: RunningNode): Promise<SignedBlock> {
  const ws = new WebSocket(`ws://127.0.0.1:${producer.port}/native/p2p`);
  try {
    return await new Promise<SignedBlock>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => {
        ws.send(encodeMessage({ kind: 'InitMessage', body: { version: 0 } }));
        ws.send(encodeMessage({ kind: 'HelloRequest', body: { xid: { id: new Uint8Array(32), num: 1 }, committed: true } }));
      });
      ws.on('message', (data: Buffer) => {
        if (data[0]! >= 64) return;
        const message = decodeMessage(new Uint8Array(data));
        if (message.kind === 'BlockMessage') resolve(message.body.block);
      });
    });
  } finally {
    ws.terminate();
  }
}

test.run();
