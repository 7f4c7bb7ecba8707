// bench/host: transfer-like transactions per second (2 reads + 2 writes, a fresh execution
// context per transaction, one LMDB commit per 1,000), instantiation cost, and what metering
// costs (metered vs unmetered, same run). Run: make bench (or node dist/bench/host/main.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountNumberFromName } from '../../host-api/index.js';
import { Action } from '../../host-api/types/index.js';
import { LmdbStore } from '../../runtime/db/lmdb-store.js';
import { Engine } from '../../runtime/wasm/engine.js';
import { ExecutionContext } from '../../runtime/wasm/execution-context.js';
import { Executor } from '../../runtime/wasm/executor.js';
import { writeServiceCode } from '../../runtime/wasm/service-code.js';
import { compileStandalone } from '../../tests/lib/asc.js';
import { formatRate } from '../lib/measure.js';

const BLOCK = 1000;
const SECONDS = 1.5;
const TARGET_TPS = 10_000;
const MAX_METERING_OVERHEAD = 0.15;

const code = await compileStandalone(join(process.cwd(), 'bench', 'services', 'transfer.as.ts'), 'transfer service');

const TOKENS = accountNumberFromName('tokens');
function transfer(i: number): Action {
  const raw = new Uint8Array(24);
  const view = new DataView(raw.buffer);
  view.setBigUint64(0, BigInt(i % 1000), true);
  view.setBigUint64(8, BigInt((i * 7 + 1) % 1000), true);
  view.setBigUint64(16, 1n, true);
  return { sender: accountNumberFromName('alice'), service: TOKENS, method: 1n, rawData: raw };
}

function transactionsPerSecond(metering: boolean, pooling: boolean): { tps: number; count: number } {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-host-'));
  const store = LmdbStore.open(dir);
  const executor = new Executor(store, new Engine({ metering, pooling }));
  writeServiceCode(store, TOKENS, code, 0n);
  store.commit();
  const actions = Array.from({ length: 4096 }, (_, i) => transfer(i));
  const runOne = (i: number): void => {
    const cp = store.checkpoint();
    const { error } = executor.run({ mode: 'transaction', target: { action: actions[i & 4095]! } });
    if (error) {
      store.rollback(cp);
      throw error;
    }
    store.release(cp);
    if ((i + 1) % BLOCK === 0) store.commit();
  };
  for (let i = 0; i < 2000; i++) runOne(i); // warm-up
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) runOne(count++);
  const elapsed = (performance.now() - start) / 1000;
  store.commit();
  void store.close().then(() => rmSync(dir, { recursive: true, force: true }));
  return { tps: count / elapsed, count };
}

/**
 * New instances of the transfer module, each given back as its context would give it back: no
 * instance pool (each one is new), so each released instance is dropped and its memory serves the
 * next, as on a node whose idle instances are all in use.
 */
function instantiationsPerSecond(): number {
  const engine = new Engine({ pooling: false });
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-host-'));
  const store = LmdbStore.open(dir);
  // The state the instances' imports would act on; the transfer service's start code calls none.
  const state = new ExecutionContext({ mode: 'rpc', store, engine });
  const hash = new Uint8Array(32);
  // Instantiation runs the module's start code, which is metered: give it fuel.
  engine.meterGlobals.fuel.value = 1n << 60n;
  engine.meterGlobals.stack.value = 1 << 20;
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    engine.instantiate(hash, () => code, state).release();
    n++;
  }
  const rate = n / ((performance.now() - start) / 1000);
  void store.close().then(() => rmSync(dir, { recursive: true, force: true }));
  return rate;
}

console.log(`bench/host (node ${process.version}); transfer service ${code.length} bytes, ${SECONDS} s per round, commit every ${BLOCK}`);
// Every measurement runs once per round and the rounds repeat them in turn, so load on the
// machine hits all alike; each figure is the best of its rounds (the metering overhead compares
// the best metered and unmetered rounds).
const ROUNDS = 3;
const metered: number[] = [];
const unmetered: number[] = [];
const fresh: number[] = [];
const instantiations: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  metered.push(transactionsPerSecond(true, true).tps);
  unmetered.push(transactionsPerSecond(false, true).tps);
  fresh.push(transactionsPerSecond(true, false).tps);
  instantiations.push(instantiationsPerSecond());
}
const best = (xs: number[]) => Math.max(...xs);
const overhead = 1 - best(metered) / best(unmetered);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const line = (label: string, value: string, note = '') => console.log(`${label.padEnd(48)} ${value.padStart(12)}${note}`);
line('transfer transactions (metered, pooled)', formatRate(best(metered)), ` /s  (target ${formatRate(TARGET_TPS)}: ${verdict(best(metered) >= TARGET_TPS)})`);
line('  unmetered, pooled', formatRate(best(unmetered)), ' /s');
line('  metered, fresh instance per transaction', formatRate(best(fresh)), ' /s');
line('metering overhead', (overhead * 100).toFixed(1), ` %   (target <= ${MAX_METERING_OVERHEAD * 100}%: ${verdict(overhead <= MAX_METERING_OVERHEAD)})`);
const inst = best(instantiations);
line('instantiation of the transfer module', formatRate(inst), ` /s  (${(1e6 / inst).toFixed(1)} µs each)`);
