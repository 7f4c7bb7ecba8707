// bench/snapshot: a chain whose state holds ACCOUNTS accounts with token balances (docs/p2p.md §7):
// the time to create a snapshot of it (plain and gzip) and to load one, the file sizes, and the
// time a fresh node takes to reach the producer's head from the snapshot (load, then sync the
// blocks after it; the median of SNAPSHOT_RUNS) and by replaying every block from genesis.
// TSIBASE_BENCH_ACCOUNTS sets the number of accounts (100,000 by default).
// Run: make bench (needs build/default.bundle and build/services/tokens.wasm from make services).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchema, systemAction } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { deployActions } from '../../host-api/boot/deploy-actions.js';
import { KeptStates } from '../../runtime/snapshot/kept-states.js';
import { headBlockNum } from '../../tests/lib/chain-head.js';
import { runCli } from '../../tests/lib/cli-process.js';
import { waitUntil } from '../../tests/lib/node-network.js';
import { startNode, type RunningNode } from '../../tests/lib/node-process.js';

const ACCOUNTS = Number(process.env.TSIBASE_BENCH_ACCOUNTS ?? 100_000);
/** Accounts created (and minted to) per transaction. */
const PER_TRANSACTION = 200;
const SYNC_TIMEOUT_MS = 30 * 60_000;
/** Fresh nodes brought to the head from the snapshot; the median is the figure. */
const SNAPSHOT_RUNS = 5;
const SNAPSHOT_TARGET_SECONDS = 2;
const MINT = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64' } });

const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-snapshot-'));
const producerDir = join(dir, 'producer');
const nodes: RunningNode[] = [];

/** Runs `tsibase <args>` and answers the seconds it took; a failure stops the benchmark. */
async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  const run = await runCli('', args);
  if (run.status !== 0) throw new Error(`tsibase ${args[0]}: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

/** Starts a node on `nodeDir` linked to `peer` and answers the seconds until it is at block `target`. */
async function secondsToReach(nodeDir: string, peer: RunningNode, target: number): Promise<number> {
  const started = performance.now();
  const node = await startNode(nodeDir, ['--peer', `http://127.0.0.1:${peer.port}`]);
  nodes.push(node);
  await waitUntil(`${nodeDir} at block ${target}`, async () => (await headBlockNum(new ChainClient(node.api))) >= target, SYNC_TIMEOUT_MS);
  return (performance.now() - started) / 1000;
}

const keptBlocks = () => KeptStates.of(producerDir).list().map((k) => k.blockNum);

try {
  let producer = await startNode(producerDir, ['-p', 'prod', '--p2p', '--boot', join(process.cwd(), 'build', 'default.bundle')]);
  nodes.push(producer);
  const client = new ChainClient(producer.api);
  await client.push(deployActions('tokens', new Uint8Array(readFileSync(join(process.cwd(), 'build', 'services', 'tokens.wasm'))), { create: { insecure: true }, init: true }), { waitFor: 'applied' });
  for (let first = 0; first < ACCOUNTS; first += PER_TRANSACTION) {
    const names = Array.from({ length: Math.min(PER_TRANSACTION, ACCOUNTS - first) }, (_, i) => `hold${(first + i).toString(36)}`);
    await client.push([
      ...names.map((name) => systemAction('root', 'accounts.newAccount', { name, authService: 'auth-any', requireMatch: true })),
      ...names.map((to) => ({ sender: 'tokens', service: 'tokens', method: 'mint', rawData: MINT.pack({ to, amount: 1_000_000n }) })),
    ], { waitFor: 'applied' });
  }
  const filled = await headBlockNum(client);
  await client.push([systemAction('transact', 'transact.setSnapTime', { seconds: 1 })], { waitFor: 'final' });
  // The first state kept after the accounts is signed once the next is kept.
  await waitUntil('two snapshots of the full state', async () => keptBlocks().filter((n) => n > filled).length >= 2, SYNC_TIMEOUT_MS);
  // No more: every node copies the state of each scheduled block, which the sync figures must not include.
  await client.push([systemAction('transact', 'transact.setSnapTime', { seconds: 0 })], { waitFor: 'final' });
  await producer.stop();
  nodes.splice(nodes.indexOf(producer), 1);

  const plain = join(dir, 'state.snapshot');
  const gzip = join(dir, 'state.snapshot.gz');
  const createPlain = await timed(['create-snapshot', producerDir, plain]);
  const createGzip = await timed(['create-snapshot', '--gzip', producerDir, gzip]);
  const load = await timed(['load-snapshot', join(dir, 'loaded'), plain]);

  producer = await startNode(producerDir, ['-p', 'prod', '--p2p']);
  nodes.push(producer);
  const target = await headBlockNum(new ChainClient(producer.api));
  // Each run a fresh node directory: load-snapshot into it, then a node started on it syncs to the head.
  const bySnapshotRuns: number[] = [];
  for (let run = 0; run < SNAPSHOT_RUNS; run++) {
    const loaded = join(dir, `loaded-${run}`);
    const seconds = await timed(['load-snapshot', loaded, plain]) + await secondsToReach(loaded, producer, target);
    bySnapshotRuns.push(seconds);
    await nodes.pop()!.stop();
  }
  bySnapshotRuns.sort((a, b) => a - b);
  const bySnapshot = bySnapshotRuns[Math.floor(SNAPSHOT_RUNS / 2)]!;
  const byReplay = await secondsToReach(join(dir, 'replayed'), producer, target);

  const mib = (file: string) => `${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`;
  const row = (what: string, value: string) => console.log(`${what.padEnd(44)} ${value.padStart(12)}`);
  console.log(`bench/snapshot (node ${process.version}); ${ACCOUNTS} accounts with token balances, head at block ${target}`);
  row('create-snapshot (plain)', `${createPlain.toFixed(2)} s`);
  row('create-snapshot --gzip', `${createGzip.toFixed(2)} s`);
  row('load-snapshot (plain)', `${load.toFixed(2)} s`);
  row('file size, plain', mib(plain));
  row('file size, gzip', mib(gzip));
  row('fresh node to the head: snapshot (load + sync)', `${bySnapshot.toFixed(2)} s`);
  console.log(`${''.padEnd(44)} (median of ${SNAPSHOT_RUNS}, min ${bySnapshotRuns[0]!.toFixed(2)}, max ${bySnapshotRuns[SNAPSHOT_RUNS - 1]!.toFixed(2)}; target ${SNAPSHOT_TARGET_SECONDS} s: ${bySnapshot <= SNAPSHOT_TARGET_SECONDS ? 'met' : 'NOT met'})`);
  row('fresh node to the head: replay from genesis', `${byReplay.toFixed(2)} s`);
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
  rmSync(dir, { recursive: true, force: true });
}
