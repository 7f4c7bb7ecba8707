// The /proc parsers and the memory classification on fixed texts in the kernel's formats.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsError } from '../../../../runtime/metrics/errors.js';
import { classifyMappings, memoryByCategory } from '../../../../runtime/metrics/memory-categories.js';
import { parseSmaps } from '../../../../runtime/metrics/smaps.js';
import { parseThreadIo, parseThreadStat, threadGroup, ticksToMicroseconds } from '../../../../runtime/metrics/thread-stats.js';
import { assertFails } from '../../../lib/assert-error.js';
import { DATA_FILE, IO, SMAPS, SMAPS_RSS_KB, STAT_MAIN, STAT_ODD_NAME } from './proc-fixtures.js';

const kib = (values: number[]): bigint => BigInt(values.reduce((a, b) => a + b, 0)) * 1024n;

test('smaps: one mapping per header, with perms, the whole path and Rss in bytes', () => {
  const mappings = parseSmaps(SMAPS);
  assert.is(mappings.length, 17);
  assert.equal(mappings[0], { perms: 'r--p', path: '/usr/bin/node', rss: 7612n * 1024n });
  assert.equal(mappings[3], { perms: 'rw-p', path: '', rss: 40n * 1024n }, 'anonymous');
  assert.equal(mappings[12], { perms: 'r-xp', path: '/tmp/a dir/old lib.so (deleted)', rss: 8n * 1024n });
  assert.is(mappings[6]!.rss, 32n * 1024n, 'a mapping with the short field list of older kernels');
});

test('classification: data file, executable files, their other mappings, the rest', () => {
  const resident = classifyMappings(parseSmaps(SMAPS), new Set([DATA_FILE]));
  assert.equal(resident, {
    database: kib(SMAPS_RSS_KB.database),
    code: kib(SMAPS_RSS_KB.code),
    data: kib(SMAPS_RSS_KB.data),
    other: kib(SMAPS_RSS_KB.other),
  });
  const total = [...SMAPS.matchAll(/^Rss:\s+(\d+) kB$/gm)].reduce((sum, m) => sum + BigInt(m[1]!) * 1024n, 0n);
  assert.is(resident.database + resident.code + resident.data + resident.other, total, 'every resident byte counted once');
});

test('classification: without data files the LMDB mappings are other memory', () => {
  const resident = classifyMappings(parseSmaps(SMAPS), new Set());
  assert.is(resident.database, 0n);
  assert.is(resident.other, kib(SMAPS_RSS_KB.other) + kib(SMAPS_RSS_KB.database));
});

test('categories: wasm figures come out of other memory, unclassified never goes negative', () => {
  const resident = { database: 1n, code: 2n, data: 3n, other: 1000n };
  assert.equal(memoryByCategory(resident, { wasmMemory: 600, wasmCode: 100 }),
    { database: 1n, code: 2n, data: 3n, wasmMemory: 600n, wasmCode: 100n, unclassified: 300n });
  assert.is(memoryByCategory(resident, { wasmMemory: 65536 * 512, wasmCode: 0 }).unclassified, 0n);
  assertFails(() => memoryByCategory(resident, { wasmMemory: -1, wasmCode: 0 }), MetricsError, 'METRICS_BAD_FIGURE', ['wasmMemory', '-1']);
  assertFails(() => memoryByCategory(resident, { wasmMemory: 0, wasmCode: 0.5 }), MetricsError, 'METRICS_BAD_FIGURE', ['wasmCode']);
});

test('smaps: malformed text is refused with the line', () => {
  const header = '00400000-00b6f000 r--p 00000000 fe:00 260689 /usr/bin/node\n';
  assertFails(() => parseSmaps(`${header}Rss:  12 MB\n`), MetricsError, 'METRICS_BAD_PROC', ['smaps:2', 'kB']);
  assertFails(() => parseSmaps(`${header}Rss:  -4 kB\n`), MetricsError, 'METRICS_BAD_PROC', ['smaps:2', '-4']);
  assertFails(() => parseSmaps('Rss:  4 kB\n'), MetricsError, 'METRICS_BAD_PROC', ['smaps:1', 'before the first mapping']);
  assertFails(() => parseSmaps(`${header}Size: 4 kB\n${header}Rss: 4 kB\n`), MetricsError, 'METRICS_BAD_PROC', ['smaps:2', 'without an Rss']);
  assertFails(() => parseSmaps(`${header}Rss: 4 kB\ngarbage\n`), MetricsError, 'METRICS_BAD_PROC', ['smaps:3', 'garbage']);
  assert.equal(parseSmaps(''), [], 'no mappings');
});

test('stat: id, faults and CPU ticks, past a command holding spaces and parentheses', () => {
  assert.equal(parseThreadStat(STAT_MAIN), { id: 26336, minorFaults: 2395n, majorFaults: 0n, userTicks: 9n, systemTicks: 1n });
  assert.equal(parseThreadStat(STAT_ODD_NAME), { id: 26337, minorFaults: 4n, majorFaults: 3n, userTicks: 250n, systemTicks: 17n });
  assertFails(() => parseThreadStat('26336 node R 1 2'), MetricsError, 'METRICS_BAD_PROC', ['(command)']);
  assertFails(() => parseThreadStat('26336 (node) R 1 2 3'), MetricsError, 'METRICS_BAD_PROC', ['field 10']);
});

test('io: read_bytes and write_bytes; missing keys count 0', () => {
  assert.equal(parseThreadIo(IO), { read: 8192n, written: 4096n });
  assert.equal(parseThreadIo('rchar: 5\n'), { read: 0n, written: 0n });
  assertFails(() => parseThreadIo('read_bytes: x\n'), MetricsError, 'METRICS_BAD_PROC', ['read_bytes']);
});

test('ticks to microseconds, exact for any tick rate', () => {
  assert.is(ticksToMicroseconds(9n, 100), 90_000n);
  assert.is(ticksToMicroseconds(3n, 1000), 3000n);
  assert.is(ticksToMicroseconds(1n, 3), 333_333n);
  assert.is(ticksToMicroseconds(2n ** 62n, 100), 2n ** 62n * 10_000n, 'no precision lost above 2^53');
});

test('thread groups: main by id, pools by name prefix, others by their name', () => {
  assert.is(threadGroup(100, 100, 'node'), 'main');
  assert.is(threadGroup(101, 100, 'libuv-worker'), 'libuv');
  assert.is(threadGroup(102, 100, 'V8 DefaultWorke'), 'v8');
  assert.is(threadGroup(103, 100, 'node'), 'node');
});

test.run();
