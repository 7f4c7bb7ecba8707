// CFT producers whose claims are keys on PKCS#11 devices (SoftHSM tokens, one per node), with
// real node processes: blocks (docs/chain.md §2) and consensus messages (docs/p2p.md §2.0, §4)
// are signed on the devices, and blocks become irreversible; when the leader is killed the other
// two elect a new one with signed votes. A producer restarted with its device locked makes no
// block and signs no confirm or vote, so with one other producer down nothing becomes
// irreversible; once `POST /native/admin/keys/unlock` unlocks it, it takes part again: blocks
// become irreversible again, and as the sole producer it makes the blocks. Every signed block of
// the chain is signed with its producer's device key, and every block after the first is signed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { blockId } from '../../../host-api/chain/index.js';
import { accountNumberFromName } from '../../../host-api/names/index.js';
import type { Claim } from '../../../host-api/types/index.js';
import { readBlock } from '../../../runtime/chain/block-log.js';
import { readBlockSignature } from '../../../runtime/chain/block-signing.js';
import { verifyDigest } from '../../../runtime/crypto/ecdsa.js';
import { sha256 } from '../../../runtime/crypto/sha256.js';
import { LmdbStore } from '../../../runtime/db/lmdb-store.js';
import { startDeviceProducers, unlockDevice } from '../../lib/device-keys.js';
import { waitUntil } from '../../lib/node-network.js';
import { nodeProcessId } from '../../lib/node-process.js';
import {
  clientOf, committedPast, headerOf, restartProducer, setProducers, waitForProducerSet, type ProducerNode,
} from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const NAMES = ['prod', 'bprod', 'cprod'];
const PIN = '1234';
/** What a producer whose key is locked away logs when it would sign a consensus message. */
const UNSIGNED = /(ConfirmMessage|RequestVoteRequest|RequestVoteResponse) not sent: this node holds no key for its producer claim/g;

interface Context {
  dir: string;
  nodes: ProducerNode[];
  /** Each node's producer claim: a verify-sig key generated on its device. */
  claims: Claim[];
  /** The node of the leader that was killed. */
  killed: number;
}
const cft = suite<Context>('CFT producers with keys on PKCS#11 devices');

/** Waits until the node's head commits a block past `num` with a lag of at most 3. */
const committingPast = (node: ProducerNode, num: number, what: string) => committedPast(node, num, what, 40_000);

const unsignedCount = (node: ProducerNode) => node.output().match(UNSIGNED)?.length ?? 0;
const indexOf = (producer: string) => NAMES.indexOf(producer);

cft.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-cft-pkcs11-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ({ nodes: ctx.nodes, claims: ctx.claims } = await startDeviceProducers(ctx.dir, NAMES, bundle, BLOCK_MS, PIN));
});

cft.after(async (ctx) => {
  await Promise.all(ctx.nodes.map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

cft('claims on the devices: blocks and confirms are signed with them and blocks become irreversible', async ({ nodes, claims }) => {
  await setProducers(nodes[0]!, NAMES, claims);
  await waitForProducerSet(nodes, NAMES);
  // Past the change, a block commits only with a confirm signed for a device key.
  const inForce = await headerOf(nodes[0]!);
  for (const node of nodes) await committingPast(node, inForce.blockNum, `irreversible past block ${inForce.blockNum} on ${node.api}`);
  for (const [i, node] of nodes.entries()) {
    const pushed = await clientOf(node).push([systemAction('root', 'accounts.newAccount', { name: `signed${'abc'[i]}`, authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
    assert.is(pushed.trace.error, null, `final on node ${i}`);
    assert.is(unsignedCount(node), 0, `node ${i} signed every consensus message`);
  }
});

cft('the leader killed: the other two elect a new leader with votes signed on their devices', async (ctx) => {
  const before = await headerOf(ctx.nodes[0]!);
  ctx.killed = indexOf(before.producer);
  const leader = ctx.nodes[ctx.killed]!;
  process.kill(nodeProcessId(leader), 'SIGKILL');
  await new Promise((resolve) => leader.process.once('exit', resolve));
  const survivor = ctx.nodes.find((n) => n !== leader)!;
  const after = await committingPast(survivor, before.blockNum, 'commits again under a new leader');
  assert.ok(after.term > before.term, `term ${after.term} after ${before.term}`);
  assert.is.not(after.producer, before.producer);
});

cft('restarted with its device locked, a producer signs nothing until it is unlocked, then takes part again', async (ctx) => {
  const lockedAt = ctx.killed;
  const head = await headerOf(ctx.nodes[(lockedAt + 1) % 3]!);
  const leaderAt = indexOf(head.producer);
  const otherAt = [0, 1, 2].find((i) => i !== lockedAt && i !== leaderAt)!;
  const locked = ctx.nodes[lockedAt] = await restartProducer(ctx.nodes[lockedAt]!);
  const leader = ctx.nodes[leaderAt]!;
  // It follows the chain, but confirms nothing: it holds no key until its device is unlocked.
  await waitUntil('the restarted producer past the head', async () => (await headerOf(locked)).blockNum > head.blockNum);
  await waitUntil('the restarted producer fails to sign a confirm', async () => unsignedCount(locked) > 0);

  // With the third producer down, no block made from now on commits without the locked one.
  await ctx.nodes[otherAt]!.stop();
  const lastCommittable = (await headerOf(leader)).blockNum;
  const tried = unsignedCount(locked);
  await waitUntil('the locked producer fails to sign five more messages', async () => unsignedCount(locked) >= tried + 5, 40_000);
  const stalled = await headerOf(leader);
  assert.ok(stalled.commitNum <= lastCommittable, `nothing past block ${lastCommittable} became irreversible (head ${stalled.blockNum} commits ${stalled.commitNum})`);
  assert.not.match(locked.output(), 'Elected leader', 'the locked producer never led');

  await unlockDevice(locked, PIN);
  await committingPast(leader, lastCommittable, 'irreversible again once the producer is unlocked');
  const pushed = await clientOf(locked).push([systemAction('root', 'accounts.newAccount', { name: 'unlocked', authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);

  // As the sole producer it makes every block, signed on its device.
  await setProducers(leader, [NAMES[lockedAt]!], [ctx.claims[lockedAt]!]);
  await waitForProducerSet([leader, locked], [NAMES[lockedAt]!]);
  const made = await waitUntil('a block by the unlocked producer', async () => {
    const header = await headerOf(leader);
    return header.producer === NAMES[lockedAt] ? header : undefined;
  });
  await committingPast(leader, made.blockNum, 'its blocks become irreversible');
});

cft('every block since the change is signed with its producer\'s device key', async (ctx) => {
  const stopped = ctx.nodes;
  await Promise.all(stopped.map((n) => n.stop()));
  ctx.nodes = [];
  const claimed = new Map(NAMES.map((name, i) => [accountNumberFromName(name), ctx.claims[i]!.rawData]));
  for (const node of stopped) {
    const store = LmdbStore.open(join(node.dir, 'db'));
    try {
      let signed = 0;
      for (let n = 3; readBlock(store, n); n++) {
        const block = readBlock(store, n)!;
        const signature = readBlockSignature(store, n);
        // Blocks before the change are unsigned (the empty claim); from the first signed one on, all are.
        if (!signature) {
          assert.is(signed, 0, `block ${n}, after signed ones, is signed`);
          continue;
        }
        const key = claimed.get(block.header.producer);
        assert.ok(key, `block ${n} by a producer of the set`);
        assert.ok(verifyDigest(key!, sha256(Uint8Array.from([0x00, 0xce, 0xa8, 0x42, ...blockId(block.header)])), signature), `block ${n}'s signature by its producer's device key`);
        signed++;
      }
      assert.ok(signed > 0, `${node.dir} has signed blocks`);
    } finally {
      await store.close();
    }
  }
});

cft.run();
