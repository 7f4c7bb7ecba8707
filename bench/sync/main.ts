// bench/sync: a fresh follower node syncs (docs/p2p.md §6.2: re-executing every block) a chain
// holding TRANSFERS signed token transfers from its producer; blocks/s and transfers/s of the
// sync, next to the rate the producer accepted the same transfers at through push_transaction
// (bench/chain's load), in the same run. The target (issue 24): sync at least as fast as the
// producer accepted them, or a follower that falls behind never catches up.
// Run: make bench (needs build/default.bundle and build/services/tokens.wasm from make services).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { headBlockNum } from '../../tests/lib/chain-head.js';
import { connectPeer, waitUntil } from '../../tests/lib/node-network.js';
import { startNode, type RunningNode } from '../../tests/lib/node-process.js';
import { formatRate } from '../lib/measure.js';
import { CONCURRENCY, preparedTransfers, pushAll } from '../lib/transfers.js';

const TRANSFERS = 20_000;
const SYNC_TIMEOUT_MS = 10 * 60_000;

const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-sync-'));
const producer = await startNode(join(dir, 'producer'), ['-p', 'prod', '--p2p', '--boot', join(process.cwd(), 'build', 'default.bundle')]);
let follower: RunningNode | undefined;
try {
  const pushRate = await pushAll(producer.api, await preparedTransfers(producer.api, TRANSFERS));
  // The block that holds the last transfer is at most one interval away.
  const target = (await headBlockNum(new ChainClient(producer.api))) + 1;
  const joining = await startNode(join(dir, 'follower'), []);
  follower = joining;
  const followerClient = new ChainClient(joining.api);
  const started = performance.now();
  const reply = await connectPeer(joining, `http://127.0.0.1:${producer.port}`);
  if (reply.status !== 200) throw new Error(`connect: ${reply.status} ${reply.text()}`);
  // Polling the follower's head while it syncs would take its time (each query runs the explorer
  // service): its log says when it has caught up with the head its peer showed it (docs/p2p.md §6.2).
  await waitUntil('the follower synced', async () => /synced: at block/.test(joining.output()), SYNC_TIMEOUT_MS);
  await waitUntil(`the follower at block ${target}`, async () => (await headBlockNum(followerClient)) >= target);
  const seconds = (performance.now() - started) / 1000;

  console.log(`bench/sync (node ${process.version}); ${TRANSFERS} signed transfers pushed with ${CONCURRENCY} in flight, then a fresh follower syncs ${target} blocks`);
  console.log(`${'transfers accepted by the producer (push)'.padEnd(48)} ${formatRate(pushRate).padStart(12)} /s`);
  console.log(`${'transfers re-executed by the follower (sync)'.padEnd(48)} ${formatRate(TRANSFERS / seconds).padStart(12)} /s  (target ${formatRate(pushRate)}: ${TRANSFERS / seconds >= pushRate ? 'met' : 'NOT met'})`);
  console.log(`${'blocks synced'.padEnd(48)} ${(target / seconds).toFixed(1).padStart(12)} /s  (up to block ${target} in ${seconds.toFixed(1)} s)`);
} finally {
  await Promise.all([producer.stop(), follower?.stop()]);
  rmSync(dir, { recursive: true, force: true });
}
