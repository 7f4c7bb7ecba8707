// The perf report: assembled from a fixed /proc tree, from no /proc at all, and live from this
// process (memory adding up to its Rss, CPU time growing with work, LMDB pages as database).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { clockTicksPerSecond } from '../../../../runtime/metrics/clock-ticks.js';
import { MetricsError } from '../../../../runtime/metrics/errors.js';
import { MEMORY_CATEGORIES } from '../../../../runtime/metrics/memory-categories.js';
import { NETWORK_FIELDS } from '../../../../runtime/metrics/network-figures.js';
import { collectPerfReport, type PerfReport, type PerfSources } from '../../../../runtime/metrics/perf-report.js';
import { TransactionCounters } from '../../../../runtime/metrics/transaction-counters.js';
import { assertFails } from '../../../lib/assert-error.js';
import { DATA_FILE, IO, SMAPS, SMAPS_RSS_KB, STAT_MAIN, STAT_ODD_NAME } from './proc-fixtures.js';

const NO_WASM = () => ({ wasmMemory: 0, wasmCode: 0 });
const NO_NETWORK = () => ({ links: 0, blocksReceived: 0, blocksApplied: 0, blocksRefused: 0 });
const idle = new TransactionCounters(() => 0);

function sources(overrides: Partial<PerfSources> = {}): PerfSources {
  return { transactions: idle, network: NO_NETWORK, databaseFiles: [], wasm: NO_WASM, ...overrides };
}

async function withTempDir(body: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-metrics-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kib = (values: number[]): number => values.reduce((a, b) => a + b, 0) * 1024;
const sumOf = (memory: PerfReport['memory']): number => MEMORY_CATEGORIES.reduce((sum, c) => sum + Number(memory[c]), 0);
const mainThread = (report: PerfReport) => report.tasks.find((t) => t.group === 'main');

test('transaction counters: each event counted, the queue depth asked for', () => {
  let depth = 0;
  const counters = new TransactionCounters(() => depth);
  for (let i = 0; i < 5; i++) counters.received();
  counters.succeeded();
  counters.succeeded();
  counters.failed();
  counters.skipped();
  depth = 1;
  assert.equal(counters.figures(), { total: 5, unprocessed: 1, succeeded: 2, failed: 1, skipped: 1 });
  const report = collectPerfReport(sources({ transactions: counters }));
  assert.equal(report.transactions, { total: '5', unprocessed: '1', succeeded: '2', failed: '1', skipped: '1' });
  depth = -1;
  assertFails(() => collectPerfReport(sources({ transactions: counters })), MetricsError, 'METRICS_BAD_FIGURE', ['unprocessed']);
});

test('network figures: links and received blocks, as decimal strings; a figure that is no count is refused', () => {
  const figures = { links: 2, blocksReceived: 1500, blocksApplied: 1497, blocksRefused: 3 };
  const report = collectPerfReport(sources({ network: () => figures }));
  assert.equal(report.network, { links: '2', blocksReceived: '1500', blocksApplied: '1497', blocksRefused: '3' });
  assertFails(() => collectPerfReport(sources({ network: () => ({ ...figures, blocksRefused: -1 }) })), MetricsError, 'METRICS_BAD_FIGURE', ['network.blocksRefused']);
});

test('a fixed /proc tree: categories, one task per thread, ticks as microseconds, missing io as 0', () =>
  withTempDir((dir) => {
    writeFileSync(join(dir, 'smaps'), SMAPS);
    const thread = (tid: number, stat: string, comm: string, io?: string) => {
      mkdirSync(join(dir, 'task', String(tid)), { recursive: true });
      writeFileSync(join(dir, 'task', String(tid), 'stat'), stat);
      writeFileSync(join(dir, 'task', String(tid), 'comm'), comm);
      if (io !== undefined) writeFileSync(join(dir, 'task', String(tid), 'io'), io);
    };
    thread(26337, STAT_ODD_NAME, 'a) (b c\n');
    thread(26336, STAT_MAIN, 'node\n', IO);
    const report = collectPerfReport(sources({ procDir: dir, databaseFiles: [DATA_FILE], wasm: () => ({ wasmMemory: 40 * 1024, wasmCode: 24 * 1024 }) }));
    assert.equal(report.memory, {
      database: String(kib(SMAPS_RSS_KB.database)),
      code: String(kib(SMAPS_RSS_KB.code)),
      data: String(kib(SMAPS_RSS_KB.data)),
      wasmMemory: String(40 * 1024),
      wasmCode: String(24 * 1024),
      unclassified: String(kib(SMAPS_RSS_KB.other) - 64 * 1024),
    });
    const tick = 1_000_000 / clockTicksPerSecond();
    // The fixture's threads belong to another process: neither is this process's main thread.
    assert.equal(report.tasks, [
      { id: 26336, group: 'node', user: String(9 * tick), system: String(1 * tick), pageFaults: '2395', read: '8192', written: '4096' },
      { id: 26337, group: 'a) (b c', user: String(250 * tick), system: String(17 * tick), pageFaults: '7', read: '0', written: '0' },
    ]);
  }));

test('without /proc: all resident memory unclassified, the process as its main thread', () =>
  withTempDir((dir) => {
    const report = collectPerfReport(sources({ procDir: join(dir, 'absent'), wasm: () => ({ wasmMemory: 4096, wasmCode: 0 }) }));
    assert.is(report.memory.database, '0');
    assert.is(report.memory.code, '0');
    assert.is(report.memory.data, '0');
    assert.is(report.memory.wasmMemory, '4096');
    assert.ok(Number(report.memory.unclassified) > 0);
    assert.is(report.tasks.length, 1);
    assert.is(report.tasks[0]!.id, process.pid);
    assert.is(report.tasks[0]!.group, 'main');
    assert.ok(Number(report.tasks[0]!.user) > 0, 'getrusage user time');
  }));

test('every figure but the task id is a decimal string; the timestamp does not go back', () => {
  const first = collectPerfReport(sources());
  const second = collectPerfReport(sources());
  assert.equal(Object.keys(first), ['timestamp', 'transactions', 'network', 'memory', 'tasks']);
  assert.equal(Object.keys(first.memory), [...MEMORY_CATEGORIES]);
  assert.equal(Object.keys(first.network), [...NETWORK_FIELDS]);
  for (const value of [first.timestamp, ...Object.values(first.transactions), ...Object.values(first.network), ...Object.values(first.memory)]) assert.match(value, /^\d+$/);
  for (const task of first.tasks) {
    assert.type(task.id, 'number');
    for (const key of ['user', 'system', 'pageFaults', 'read', 'written'] as const) assert.match(task[key], /^\d+$/);
  }
  assert.ok(BigInt(second.timestamp) >= BigInt(first.timestamp));
});

test('live: the categories add up to the process Rss', () => {
  const report = collectPerfReport(sources());
  const vmRssKb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
  const sum = sumOf(report.memory);
  assert.ok(Number(report.memory.code) > 0, 'the node binary is mapped executable');
  assert.ok(Number(report.memory.data) > 0, 'and has read-only data');
  assert.ok(Number(report.memory.unclassified) > 0, 'the heaps');
  // smaps and VmRSS are read at different moments and VmRSS is kept in per-CPU batches.
  const tolerance = Math.max(8 * 1024 * 1024, vmRssKb * 1024 * 0.05);
  assert.ok(Math.abs(sum - vmRssKb * 1024) <= tolerance, `categories ${sum} vs VmRSS ${vmRssKb * 1024}`);
});

test('live: the main thread is listed once and its user time grows with work', () => {
  const before = mainThread(collectPerfReport(sources()));
  assert.ok(before, 'a main thread');
  assert.is(before!.id, process.pid);
  let after = before!;
  // Burn CPU in slices until the clock-tick counter moves; bounded, so a stuck counter fails.
  for (let slice = 0; slice < 2000 && after.user === before!.user; slice++) {
    let x = 0;
    for (let i = 0; i < 2_000_000; i++) x = (x * 31 + i) | 0;
    if (x === 0.5) throw new Error('unreachable: keeps the loop alive');
    after = mainThread(collectPerfReport(sources()))!;
  }
  assert.ok(BigInt(after.user) > BigInt(before!.user), `user time ${before!.user} -> ${after.user}`);
  const report = collectPerfReport(sources());
  assert.is(report.tasks.filter((t) => t.group === 'main').length, 1);
  assert.equal(report.tasks.map((t) => t.id), [...report.tasks.map((t) => t.id)].sort((a, b) => a - b), 'in thread id order');
});

test('live: LMDB pages read back count as database memory', () =>
  withTempDir(async (dir) => {
    const store = LmdbStore.open(dir);
    try {
      const value = (i: number) => new Uint8Array(64 * 1024).fill(i);
      const key = (i: number) => Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1, i);
      for (let i = 0; i < 64; i++) store.put(DbId.service, key(i), value(i));
      store.commit();
      for (let i = 0; i < 64; i++) assert.ok(Buffer.from(store.get(DbId.service, key(i))!).equals(value(i)), `value ${i} read back`);
      const withDb = collectPerfReport(sources({ databaseFiles: [join(dir, 'data.mdb')] }));
      const withoutDb = collectPerfReport(sources());
      assert.ok(Number(withDb.memory.database) >= 2 * 1024 * 1024, `database ${withDb.memory.database} after reading 4 MiB`);
      assert.is(withoutDb.memory.database, '0', 'only the named data files count');
    } finally {
      await store.close();
    }
  }));

test.run();
