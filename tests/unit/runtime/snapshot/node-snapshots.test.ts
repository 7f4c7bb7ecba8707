// A node's scheduled snapshots (docs/p2p.md §7.1, §7.2) on real chains: after transact::setSnapTime
// the producer keeps the state of the scheduled block, records its checksum, and signs it once the
// irreversible block is past it; a follower applying the same blocks keeps the same state and takes
// the producer's signed checksum (once; a stranger's is dropped; one for a block it has not reached
// waits for that block).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, bootTransactions, signTransaction, systemAction, unpackBundle } from '../../../../host-api/index.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { KvMerkle } from '../../../../runtime/crypto/kv-merkle.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { KeptStates } from '../../../../runtime/snapshot/kept-states.js';
import { NodeSnapshots, type StateChecksumBody } from '../../../../runtime/snapshot/node-snapshots.js';
import { encodedRows, FileDb } from '../../../../runtime/snapshot/snapshot-file.js';
import { readSnapshotRow } from '../../../../runtime/snapshot/snapshot-rows.js';
import { testBundle } from '../../../lib/test-bundle.js';
import { applyRange, inBlock, transaction } from '../chain/chain-nodes.js';

interface SnapshotNode { dir: string; store: LmdbStore; chain: Chain; snapshots: NodeSnapshots; signed: StateChecksumBody[]; kept: KeptStates }

const test = suite<{ producer: SnapshotNode; follower: SnapshotNode }>('node snapshots');
const PROD = accountNumberFromName('prod');

/** A chain in a temporary directory whose committed blocks go through NodeSnapshots, as in the node. */
function snapshotNode(producer: string): SnapshotNode {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-node-snapshots-'));
  const store = LmdbStore.open(join(dir, 'db'));
  const kept = KeptStates.of(dir);
  const signed: StateChecksumBody[] = [];
  const node = { dir, store, kept, signed } as SnapshotNode;
  node.chain = new Chain(store, new Engine(), {
    producer,
    blockIntervalMs: 100,
    committed: ({ block: { header }, blockId }) => signed.push(...node.snapshots.blockCommitted(header, blockId, node.chain.head!.irreversible)),
  });
  node.snapshots = new NodeSnapshots(store, node.chain.claims, kept, () => undefined, () => accountNumberFromName(producer), (m) => assert.unreachable(m));
  return node;
}

async function close(node: SnapshotNode): Promise<void> {
  node.chain.stop();
  await node.store.close();
  rmSync(node.dir, { recursive: true, force: true });
}

/** The checksum of kept rows, recomputed from the file. */
function keptChecksum(node: SnapshotNode, blockNum: number, blockId: Uint8Array) {
  const merkles = new Map([[FileDb.service as number, new KvMerkle()], [FileDb.native as number, new KvMerkle()]]);
  for (const { fileDb, key, value } of encodedRows(node.kept.rows(blockNum, blockId)!)) merkles.get(fileDb)!.push(key, value);
  return { serviceRoot: merkles.get(FileDb.service)!.root(), nativeRoot: merkles.get(FileDb.native)!.root() };
}

test.before(async (ctx) => {
  ctx.producer = snapshotNode('prod');
  ctx.follower = snapshotNode('');
  const boot = bootTransactions(unpackBundle(await testBundle()), { producer: 'prod' });
  assert.is(ctx.producer.chain.boot(boot.pushBoot).error, null);
  await inBlock(ctx.producer.chain, boot.later);
});

test.after(async (ctx) => {
  await close(ctx.producer);
  await close(ctx.follower);
});

test('no snapshot is kept before setSnapTime', ({ producer }) => {
  assert.equal(producer.kept.list(), []);
});

test('after setSnapTime the producer keeps a scheduled state, records its checksum and signs it once irreversible', async ({ producer }) => {
  await inBlock(producer.chain, [signTransaction(transaction(producer.chain, [systemAction('transact', 'transact.setSnapTime', { seconds: 1 })]), [])]);
  while (producer.kept.list().length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await inBlock(producer.chain, []);
  }
  const [{ blockNum, blockId }] = producer.kept.list();
  const row = readSnapshotRow(producer.store, blockId!)!;
  assert.equal(row.state!.state, keptChecksum(producer, blockNum!, blockId!), 'the recorded checksum is the kept rows\' checksum');
  // The irreversible block moves past it two blocks later (one producer: each block commits its parent).
  while (producer.signed.length === 0) await inBlock(producer.chain, []);
  assert.equal(producer.signed.map((s) => s.blockId), [blockId]);
  assert.equal(producer.signed[0]!.signature.account, PROD);
  assert.equal(readSnapshotRow(producer.store, blockId!)!.state!.signatures.map((s) => s.account), [PROD]);
});

test('a follower keeps the same state and takes the producer\'s signature once; a stranger\'s is dropped', async ({ producer, follower }) => {
  const [{ blockNum, blockId }] = producer.kept.list();
  const body = producer.signed[0]!;
  // Before the follower has the block, the checksum waits for it.
  assert.is(follower.snapshots.receiveChecksum(body), false);
  await applyRange(producer.chain, follower.chain, 2, producer.chain.head!.header.blockNum);
  assert.equal(follower.kept.list().map((k) => k.blockNum), [blockNum]);
  assert.equal(keptChecksum(follower, blockNum!, blockId!), body.state, 'the same state as the producer\'s');
  assert.ok(follower.signed.some((s) => s.signature.account === PROD), 'the waiting checksum was taken when the block came, to be flooded on');
  assert.equal(readSnapshotRow(follower.store, blockId!)!.state!.signatures.map((s) => s.account), [PROD]);
  assert.is(follower.snapshots.receiveChecksum(body), false, 'not new any more');
  const stranger = { ...body, signature: { ...body.signature, account: accountNumberFromName('alice') } };
  assert.is(follower.snapshots.receiveChecksum(stranger), false);
  assert.equal(readSnapshotRow(follower.store, blockId!)!.state!.signatures.length, 1);
});

test.run();
