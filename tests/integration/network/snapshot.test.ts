// docs/p2p.md §7 with real node processes: transact::setSnapTime schedules snapshots, the producer
// keeps the state of each scheduled block and signs its checksum; `tsibase create-snapshot` of the
// stopped node writes it, `tsibase load-snapshot` loads it into a new node directory, and a node
// started there follows the chain from the snapshot block. A gzip snapshot made from that node
// (signed through the checksums it received) loads into another; a fresh node linked only to that
// one gets the snapshot over P2P (§7.4) and syncs, and passes it on to a node that was linked to it
// while it had nothing. Before the snapshots the producer changes its block key twice, so every
// new node light-validates the producers from genesis through the changes' headers. Damaged files,
// files with missing or forged headers, and files of another chain, are refused with the database
// unchanged.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { bytesToHex, hexToBytes } from '../../../host-api/encoding/hex.js';
import { readStatus } from '../../../runtime/chain/chain-state.js';
import { LmdbStore } from '../../../runtime/db/lmdb-store.js';
import { encodedRows, encodeRow, fileHeader, FileDb } from '../../../runtime/snapshot/snapshot-file.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { runCli } from '../../lib/cli-process.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { connectPeer, peersOf, waitUntil } from '../../lib/node-network.js';
import { clientOf, urlOf } from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const test = suite<{ dir: string; bundle: string; producer: RunningNode; nodes: RunningNode[] }>('snapshots');
const BLOCK_MS = '200';

interface Head { num: number; id: string }

async function headOf(node: RunningNode): Promise<Head> {
  const { headBlock } = await clientOf(node).graphql('explorer', '{ headBlock { id header { blockNum } } }') as { headBlock: { id: string; header: { blockNum: number } } };
  return { num: headBlock.header.blockNum, id: headBlock.id };
}

/** The node's head status straight from its (stopped) database. */
async function storedHead(nodeDir: string): Promise<string | undefined> {
  const store = LmdbStore.open(join(nodeDir, 'db'));
  try {
    const head = readStatus(store)?.head;
    return head ? bytesToHex(head.blockId) : undefined;
  } finally {
    await store.close();
  }
}

/** The block numbers of the states a node keeps (their files start with the number). */
const keptBlocks = (nodeDir: string) => keptStates(nodeDir).map((f) => Number(f.split('-')[0]));
const keptStates = (nodeDir: string) => existsSync(join(nodeDir, 'snapshot-states')) ? readdirSync(join(nodeDir, 'snapshot-states')).filter((f) => f.endsWith('.rows')) : [];

function startProducer(ctx: { dir: string; bundle: string }): Promise<RunningNode> {
  return startNode(join(ctx.dir, 'producer'), ['-p', 'prod', '--boot', ctx.bundle, '--p2p', '--block-interval', BLOCK_MS]);
}

/**
 * Waits until `node` is as far as `peer`'s head was, then checks that its head block is `peer`'s
 * block there. Its head, not `peer`'s old head: a node that loaded a snapshot made after that
 * head holds none of the blocks before the snapshot's.
 */
async function caughtUp(node: RunningNode, peer: RunningNode): Promise<void> {
  const target = await headOf(peer);
  await waitUntil(`${node.api} at block ${target.num}`, async () => (await headOf(node)).num >= target.num, 30_000);
  const head = await headOf(node);
  const id = await waitUntil(`${peer.api} has block ${head.num}`, async () => {
    const { block } = await clientOf(peer).graphql('explorer', `{ block(num: ${head.num}) { id } }`) as { block: { id: string } | null };
    return block?.id;
  });
  assert.is(head.id, id, `${node.api} follows the same chain`);
}

/** Starts a node on a loaded directory, linked to `peer`, and waits until it has `peer`'s head block. */
async function followFrom(ctx: { dir: string; nodes: RunningNode[] }, name: string, peer: RunningNode): Promise<RunningNode> {
  const node = await startNode(join(ctx.dir, name), ['--p2p', '--peer', urlOf(peer), '--block-interval', BLOCK_MS]);
  ctx.nodes.push(node);
  await caughtUp(node, peer);
  return node;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-snapshot-'));
  ctx.bundle = join(ctx.dir, 'test.bundle');
  ctx.nodes = [];
  writeFileSync(ctx.bundle, await testBundle());
  ctx.producer = await startProducer(ctx);
});

test.after(async (ctx) => {
  await Promise.all([ctx.producer, ...ctx.nodes].map((n) => n?.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** A key the node generates in its key store, as prod's claim; joint consensus is over when this returns. */
async function changeBlockKey(node: RunningNode): Promise<void> {
  const generated = await adminRequest(node, '/native/admin/keys', { json: { service: 'verify-sig' } });
  assert.is(generated.status, 200, generated.text());
  const auth = { service: 'verify-sig', rawData: hexToBytes((generated.json() as { rawData: string }).rawData) };
  await clientOf(node).push([systemAction('producers', 'producers.setProducers', { prods: [{ name: 'prod', auth }] })], { waitFor: 'final' });
  // The block after the change's block ends joint consensus (docs/p2p.md §6.1); wait past it.
  const { num } = await headOf(node);
  await waitUntil('joint consensus over', async () => (await headOf(node)).num > num + 2, 10_000);
}

test('the producer changes its block key twice before snapshots: the second change is ended by a block signed with the first key', async (ctx) => {
  // docs/p2p.md §6.1: each change goes through joint consensus; its ending block is what a new
  // node's light validation checks against the set before it (§7.3).
  await changeBlockKey(ctx.producer);
  await changeBlockKey(ctx.producer);
});

test('setSnapTime schedules snapshots: the producer keeps their states', async (ctx) => {
  const producerDir = join(ctx.dir, 'producer');
  assert.equal(keptStates(producerDir), [], 'no snapshot before setSnapTime');
  await clientOf(ctx.producer).push([systemAction('transact', 'transact.setSnapTime', { seconds: 1 })], { waitFor: 'final' });
  await waitUntil('two kept snapshot states', async () => keptStates(producerDir).length >= 2, 20_000);
});

test('create-snapshot of the stopped producer loads into a new node, which follows the chain from there', async (ctx) => {
  await ctx.producer.stop();
  const producerDir = join(ctx.dir, 'producer');
  const file = join(ctx.dir, 'plain.snapshot');
  const created = await runCli('', ['create-snapshot', producerDir, file]);
  assert.is(created.status, 0, created.stderr);
  const bytes = readFileSync(file);
  assert.is(bytes.readUInt32LE(0), 0x7388cf00, 'psibase magic');
  assert.is(bytes.readUInt32LE(4), 0, 'version 0');
  const loaded = await runCli('', ['load-snapshot', join(ctx.dir, 'b'), file]);
  assert.is(loaded.status, 0, loaded.stderr);
  const num = Number(/of block (\d+) \(/.exec(loaded.stderr)?.[1]);
  assert.ok(num > 2, loaded.stderr);
  // Each step is said as it begins, with the time so far.
  for (const step of [/reading the snapshot file \(\d+ bytes\)/, /writing \d+ state rows/, /checking \d+ block headers and the producers' signatures/, `committing the state of block ${num}`]) {
    assert.match(loaded.stderr, step);
  }
  ctx.producer = await startProducer(ctx);
  const b = await followFrom(ctx, 'b', ctx.producer);
  // b has no block below the snapshot but the genesis header.
  const { block } = await clientOf(b).graphql('explorer', `{ block(num: ${num - 1}) { id } }`) as { block: { id: string } | null };
  assert.is(block, null);
});

test('a gzip snapshot made from the snapshot-loaded node loads into another', async (ctx) => {
  const b = ctx.nodes[0]!;
  const bDir = join(ctx.dir, 'b');
  // b keeps the states of the snapshots scheduled after it loaded, signed by the producer's checksums.
  // The producer floods its signature once the block is irreversible, to the nodes linked then
  // (docs/p2p.md §7.2): blocks b caught up on were signed before it was linked. The first state
  // kept after it caught up is signed by the time the next is kept.
  const caughtUp = (await headOf(b)).num;
  await waitUntil('b keeps two snapshot states after catching up', async () => keptBlocks(bDir).filter((n) => n > caughtUp).length >= 2, 20_000);
  await b.stop();
  ctx.nodes.splice(0, 1);
  const file = join(ctx.dir, 'b.snapshot.gz');
  const created = await runCli('', ['create-snapshot', '--gzip', bDir, file]);
  assert.is(created.status, 0, created.stderr);
  assert.is(readFileSync(file)[0], 0x1f, 'gzip');
  const loaded = await runCli('', ['load-snapshot', join(ctx.dir, 'c'), file]);
  assert.is(loaded.status, 0, loaded.stderr);
  await followFrom(ctx, 'c', ctx.producer);
});

test('fresh nodes get the snapshot over P2P from a snapshot-loaded node, and pass it on', async (ctx) => {
  const c = ctx.nodes[ctx.nodes.length - 1]!;
  const g = await followFrom(ctx, 'g', c);
  assert.match(c.output(), /sent the snapshot of block \d+/);
  // Its progress is told as it arrives (the first part at once), then that it is loaded.
  assert.match(g.output(), /receiving the snapshot of block \d+: \d+ rows, [\d.]+ MiB so far[^\n]*\n[\s\S]*loaded the snapshot of block \d+/);
  // h links to i while i has nothing; then i links to g: i loads g's snapshot and passes it on to h.
  const i = await startNode(join(ctx.dir, 'i'), ['--p2p', '--block-interval', BLOCK_MS]);
  ctx.nodes.push(i);
  const h = await startNode(join(ctx.dir, 'h'), ['--peer', urlOf(i), '--block-interval', BLOCK_MS]);
  ctx.nodes.push(h);
  await waitUntil('h linked to i', async () => (await peersOf(i)).length === 1);
  assert.is((await connectPeer(i, urlOf(g))).status, 200);
  await caughtUp(i, g);
  await caughtUp(h, g);
  assert.match(i.output(), /sent the snapshot of block \d+/);
  assert.match(h.output(), /loaded the snapshot of block \d+/);
});

test('damaged snapshots and snapshots of another chain are refused; the database is unchanged', async (ctx) => {
  const good = readFileSync(join(ctx.dir, 'plain.snapshot'));
  const refuse = async (name: string, bytes: Uint8Array, target: string, code: RegExp) => {
    const file = join(ctx.dir, name);
    writeFileSync(file, bytes);
    const run = await runCli('', ['load-snapshot', target, file]);
    assert.is(run.status, 1, run.stderr);
    assert.match(run.stderr, code);
  };
  const fresh = join(ctx.dir, 'fresh');
  const flipped = Buffer.from(good);
  flipped[100]! ^= 1;
  await refuse('flipped', flipped, fresh, /do not match the checksum|does not decode|database id|wrong order|ends inside/);
  await refuse('truncated', good.subarray(0, good.length - 5), fresh, /ends inside a row/);
  await refuse('magic', Buffer.concat([Buffer.from([1, 2, 3, 4]), good.subarray(4)]), fresh, /not a snapshot file/);
  // Headers missing or forged: the producers cannot be light-validated from genesis (docs/p2p.md §7.3).
  const rows = [...encodedRows(good, 8)];
  const fileOf = (keep: typeof rows) => Buffer.concat([fileHeader(), ...keep.map((r) => encodeRow(r.fileDb, r.key, r.value))]);
  const headers = rows.filter((r) => r.fileDb === FileDb.blockLog);
  assert.ok(headers.length >= 4, `genesis, the changes' headers and the snapshot block (${headers.length})`);
  await refuse('no-change-start', fileOf(rows.filter((r) => r !== headers[1])), fresh, /consensus-change headers|consensus state does not match/);
  const proofs = rows.filter((r) => r.fileDb === FileDb.blockProof);
  assert.ok(proofs.length >= 2, 'the ending block of the second change and the snapshot block are signed');
  const forged = rows.map((r) => (r === proofs[0] ? { ...r, value: Uint8Array.from(r.value, (b, i) => (i === 12 ? b ^ 1 : b)) } : r));
  await refuse('forged-signature', fileOf(forged), fresh, /signature of prod does not verify/);
  assert.is(await storedHead(fresh), undefined, 'nothing was loaded');
  // Another chain's node directory keeps its own state.
  const other = await startNode(join(ctx.dir, 'other'), ['-p', 'prod', '--boot', ctx.bundle, '--block-interval', BLOCK_MS]);
  await waitUntil('the other chain has blocks', async () => (await headOf(other)).num > 3, 10_000);
  await other.stop();
  const otherHead = await storedHead(join(ctx.dir, 'other'));
  await refuse('other-chain', good, join(ctx.dir, 'other'), /holds chain/);
  assert.is(await storedHead(join(ctx.dir, 'other')), otherHead);
  // The fresh directory still takes the good file.
  const loaded = await runCli('', ['load-snapshot', fresh, join(ctx.dir, 'plain.snapshot')]);
  assert.is(loaded.status, 0, loaded.stderr);
});

test.run();
