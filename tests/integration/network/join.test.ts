// docs/p2p.md "What we build" 1-4, §6.2: a producer with a short block interval and a node that
// joins it late. The fresh node syncs a chain of a thousand blocks to the head; disconnect and
// connect drop and restore its link, and the blocks made meanwhile reach it after; a peer whose
// P2P frame does not decode loses its link with a logged reason while the producer goes on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { encodeMessage } from '../../../runtime/network/messages/index.js';
import type { SyncState } from '../../../host-api/http/sync-status.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { headBlockNum } from '../../lib/chain-head.js';
import { connectPeer, disconnectPeer, peersOf, waitForOutput, waitForPeers, waitUntil } from '../../lib/node-network.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { testBundle } from '../../lib/test-bundle.js';

interface Ctx { dir: string; producer: RunningNode; joiner: RunningNode }
const test = suite<Ctx>('a node joining a long chain');
/** The shortest interval the node takes: a thousand blocks in seconds. */
const BLOCK_MS = '10';
const JOIN_AFTER = 1000;
/** Generous: the machine running the tests is shared and slow at times. */
const LONG_MS = 180_000;

const urlOf = (node: RunningNode) => `http://127.0.0.1:${node.port}`;
const headOf = (node: RunningNode) => headBlockNum(new ChainClient(node.api));

async function blockIdAt(node: RunningNode, num: number): Promise<string | undefined> {
  const { block } = await new ChainClient(node.api).graphql('explorer', `{ block(num: ${num}) { id } }`) as { block: { id: string } | null };
  return block?.id;
}

/** Waits until `node` holds the block the producer has at its head now, with the same id; its number. */
async function holdsProducerHead(node: RunningNode, producer: RunningNode): Promise<number> {
  const num = await headOf(producer);
  const id = await blockIdAt(producer, num);
  assert.ok(id, `the producer has its head block ${num}`);
  await waitUntil(`${node.api} holding block ${num} ${id}`, async () => (await blockIdAt(node, num)) === id, LONG_MS);
  return num;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-join-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ctx.producer = await startNode(join(ctx.dir, 'producer'), ['-p', 'prod', '--boot', bundle, '--p2p', '--block-interval', BLOCK_MS]);
});

test.after(async (ctx) => {
  await Promise.all([ctx.producer?.stop(), ctx.joiner?.stop()]);
  rmSync(ctx.dir, { recursive: true, force: true });
});

test(`a fresh node joining after ${JOIN_AFTER} blocks syncs to the producer's head`, async (ctx) => {
  await waitUntil(`the producer at block ${JOIN_AFTER}`, async () => (await headOf(ctx.producer)) >= JOIN_AFTER, LONG_MS);
  // As an operator joins: `tsibase node <dir> --join <url>`.
  ctx.joiner = await startNode(join(ctx.dir, 'joiner'), ['--join', urlOf(ctx.producer)]);
  assert.match(ctx.joiner.output(), `joining the network of ${urlOf(ctx.producer)} (kept in config peers): syncing its chain, then following it`);
  const synced = await holdsProducerHead(ctx.joiner, ctx.producer);
  assert.ok(synced >= JOIN_AFTER);
  // Every block on the way is the producer's.
  for (const num of [2, 3, Math.floor(synced / 2), synced - 1]) assert.is(await blockIdAt(ctx.joiner, num), await blockIdAt(ctx.producer, num), `block ${num}`);
  assert.match(ctx.joiner.output(), /syncing: at block \d+, \d+ blocks behind the peers \(\d+\)/);
  await waitForOutput(ctx.joiner, /synced: at block \d+, the head of the peers/);
  // The status's sync figures, for tsibase info and x-admin (docs/http.md §7).
  const { status, sync } = (await adminRequest(ctx.joiner, '/native/admin/status?sync')).json() as { status: string[]; sync: SyncState };
  assert.not.ok(status.includes('needgenesis'));
  assert.ok(sync.head >= synced && sync.best >= sync.head, JSON.stringify(sync));
  // Joined for good: the next start follows the network without --join.
  assert.equal(JSON.parse(readFileSync(join(ctx.dir, 'joiner', 'config.json'), 'utf8')).peers, [urlOf(ctx.producer)]);
});

test('--join of a node that takes no links says so and starts nothing', async (ctx) => {
  const closed = await startNode(join(ctx.dir, 'closed'), []);
  try {
    const refused = await startNode(join(ctx.dir, 'refused'), ['--join', urlOf(closed)]).then(async (started) => {
      await started.stop();
      return 'started';
    }, (err: Error) => err.message);
    assert.match(refused, `tsibase node: --join ${urlOf(closed)}: peer does not accept p2p links: start it with --p2p or set p2p in its config`);
  } finally {
    await closed.stop();
  }
});

test('disconnect drops the link; connect restores it, and the blocks made meanwhile arrive', async ({ producer, joiner }) => {
  // The joined URL is a configured peer, which the node would dial again: only this test's connect may.
  const config = (await adminRequest(joiner, '/config')).json() as Record<string, unknown>;
  assert.is((await adminRequest(joiner, '/config', { method: 'PUT', json: { ...config, autoconnect: false } })).status, 200);
  const [link] = await waitForPeers(joiner, (peers) => peers.length === 1, 'its link to the producer');
  assert.is((await disconnectPeer(joiner, link!.id)).status, 200);
  await waitForPeers(joiner, (peers) => peers.length === 0, 'no links');
  await waitForPeers(producer, (peers) => peers.length === 0, 'no links');
  const cut = await headOf(joiner);
  // The producer goes on without it; nothing reaches the joiner without a link.
  await waitUntil('the producer 50 blocks ahead', async () => (await headOf(producer)) >= cut + 50, LONG_MS);
  // (A block it was applying as the link went down may still land: not fifty.)
  assert.ok((await headOf(joiner)) < cut + 50, 'the blocks made while the link was down did not reach it');
  assert.is((await connectPeer(joiner, urlOf(producer))).status, 200);
  await waitForPeers(joiner, (peers) => peers.length === 1, 'the link up again');
  assert.ok(await holdsProducerHead(joiner, producer) >= cut + 50);
});

/** A raw peer on the producer's /native/p2p, which says when the producer closes it. */
async function rawPeer(node: RunningNode): Promise<{ socket: WebSocket; closed: Promise<void> }> {
  const socket = new WebSocket(`ws://127.0.0.1:${node.port}/native/p2p`);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  return { socket, closed };
}

test('an unknown type below 64 is ignored; a frame that does not decode closes its link with a logged reason; the producer goes on', async ({ producer }) => {
  const before = (await peersOf(producer)).length;
  const peer = await rawPeer(producer);
  await waitForPeers(producer, (peers) => peers.length === before + 1, 'the raw peer');
  peer.socket.send(encodeMessage({ kind: 'InitMessage', body: { version: 0 } }));
  // Type 7 is no message this node knows, and below 64: ignored, as psibase does (docs/p2p.md §2.1).
  peer.socket.send(Uint8Array.of(7, 1, 2, 3));
  const hello = encodeMessage({ kind: 'HelloRequest', body: { xid: { id: new Uint8Array(32), num: 1 }, committed: true } });
  // A HelloRequest cut short: a known type whose body does not decode.
  peer.socket.send(hello.subarray(0, hello.length - 5));
  await peer.closed;
  await waitForOutput(producer, /link \d+: HelloRequest \(type 32\), \d+ bytes: .*; closing it/);
  assert.not.match(producer.output(), /type 7\b/, 'the unknown type was not taken for a bad message');
  await waitForPeers(producer, (peers) => peers.length === before, 'the raw peer gone');
  const head = await headOf(producer);
  await waitUntil('the producer producing', async () => (await headOf(producer)) > head + 5);

  // A BlockMessage whose SignedBlock is truncated likewise.
  const second = await rawPeer(producer);
  second.socket.send(encodeMessage({ kind: 'InitMessage', body: { version: 0 } }));
  second.socket.send(Uint8Array.of(34, 0, 0, 0));
  await second.closed;
  await waitForOutput(producer, /link \d+: BlockMessage \(type 34\), 4 bytes: .*; closing it/);
  assert.is(producer.process.exitCode, null, 'the producer is running');
});

test.run();
