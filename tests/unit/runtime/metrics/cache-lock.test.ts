// Status `slow`: the /proc readers of the memory-lock limits on texts in the kernel's formats, the
// verdict on vectors at and around each bound, and the reader on a /proc directory of files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  cacheLockProblems, parseCanIgnoreLockLimit, parseLockLimit, parseMemAvailable, readMemoryLockLimits, type MemoryLockLimits,
} from '../../../../runtime/metrics/cache-lock.js';
import { MetricsError } from '../../../../runtime/metrics/errors.js';
import { assertFails } from '../../../lib/assert-error.js';

// Cut from this machine's kernel (6.x): /proc/meminfo, /proc/self/limits, /proc/self/status.
const MEMINFO = `MemTotal:       24684096 kB
MemFree:        22836804 kB
MemAvailable:   24018860 kB
Buffers:           21612 kB
`;
const limitsWith = (soft: string, hard: string) => `Limit                     Soft Limit           Hard Limit           Units     
Max open files            20000                20000                files     
Max locked memory         ${soft.padEnd(20)} ${hard.padEnd(20)} bytes     
Max address space         unlimited            unlimited            bytes     
`;
const statusWith = (capEff: string) => `Name:	node
Umask:	0022
CapInh:	0000000000000000
CapPrm:	${capEff}
CapEff:	${capEff}
CapBnd:	000001ffffffffff
`;
const ROOT_CAPS = '000001fffeffffff'; // a container's root: CAP_IPC_LOCK (bit 14) among them
const NO_IPC_LOCK = '000001fffeffbfff'; // the same without bit 14
const USER_CAPS = '0000000000000000';

test('readers: MemAvailable in bytes, the soft lock limit, CAP_IPC_LOCK from CapEff', () => {
  assert.is(parseMemAvailable(MEMINFO), 24018860n * 1024n);
  assert.is(parseLockLimit(limitsWith('8388608', '8388608')), 8388608n);
  assert.is(parseLockLimit(limitsWith('65536', 'unlimited')), 65536n, 'the soft limit, not the hard one');
  assert.is(parseLockLimit(limitsWith('unlimited', 'unlimited')), null);
  assert.is(parseCanIgnoreLockLimit(statusWith(ROOT_CAPS)), true);
  assert.is(parseCanIgnoreLockLimit(statusWith(NO_IPC_LOCK)), false);
  assert.is(parseCanIgnoreLockLimit(statusWith(USER_CAPS)), false);
  assert.is(parseCanIgnoreLockLimit(statusWith('0000000000004000')), true, 'CAP_IPC_LOCK alone');
});

test('readers: a missing line or a malformed figure is refused naming the source', () => {
  assertFails(() => parseMemAvailable('MemTotal: 1 kB\n', '/proc/meminfo'), MetricsError, 'METRICS_BAD_PROC', ['/proc/meminfo', 'MemAvailable']);
  assertFails(() => parseMemAvailable('MemAvailable:   12x kB\n'), MetricsError, 'METRICS_BAD_PROC', ['12x']);
  assertFails(() => parseLockLimit(limitsWith('-1', '0')), MetricsError, 'METRICS_BAD_PROC', ['Max locked memory', '-1']);
  assertFails(() => parseLockLimit('Max open files 1 1 files\n', 'limits'), MetricsError, 'METRICS_BAD_PROC', ['limits', 'Max locked memory']);
  assertFails(() => parseCanIgnoreLockLimit('Name:\tnode\n', 'status'), MetricsError, 'METRICS_BAD_PROC', ['status', 'CapEff']);
});

const limits = (availableBytes: bigint, lockLimitBytes: bigint | null, canIgnoreLockLimit: boolean): MemoryLockLimits =>
  ({ availableBytes, lockLimitBytes, canIgnoreLockLimit });
const MIB = 1024n * 1024n;

test('verdict: RAM bounds every cache; the lock limit only without CAP_IPC_LOCK', () => {
  const vectors: [bytes: bigint, limits: MemoryLockLimits, problems: string[]][] = [
    [256n * MIB, limits(1024n * MIB, null, false), []],
    [1024n * MIB, limits(1024n * MIB, null, false), []], // exactly what is available
    [1024n * MIB + 1n, limits(1024n * MIB, null, false), ['ram']],
    [8n * MIB, limits(1024n * MIB, 8n * MIB, false), []], // exactly the limit
    [8n * MIB + 1n, limits(1024n * MIB, 8n * MIB, false), ['permission']],
    [256n * MIB, limits(1024n * MIB, 8n * MIB, true), []], // CAP_IPC_LOCK lifts the limit
    [2048n * MIB, limits(1024n * MIB, 8n * MIB, true), ['ram']],
    [2048n * MIB, limits(1024n * MIB, 8n * MIB, false), ['ram', 'permission']],
    [0n, limits(0n, 0n, false), []],
  ];
  for (const [bytes, given, expected] of vectors) {
    const problems = cacheLockProblems(bytes, given);
    const kinds = problems.map((p) => (p.includes('MemAvailable') ? 'ram' : p.includes('RLIMIT_MEMLOCK') ? 'permission' : p));
    assert.equal(kinds, expected, `${bytes} bytes with ${JSON.stringify(given, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  }
  assert.equal(cacheLockProblems(2048n * MIB, limits(1024n * MIB, 8n * MIB, false)), [
    `only ${1024n * MIB} bytes of RAM are available (MemAvailable)`,
    `the locked-memory limit is ${8n * MIB} bytes (RLIMIT_MEMLOCK) and the process lacks CAP_IPC_LOCK`,
  ]);
});

test('readMemoryLockLimits: from a /proc directory; undefined when a file is missing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-proc-'));
  try {
    const self = join(dir, 'self');
    mkdirSync(self);
    writeFileSync(join(dir, 'meminfo'), MEMINFO);
    writeFileSync(join(self, 'limits'), limitsWith('65536', '65536'));
    assert.is(readMemoryLockLimits(self, join(dir, 'meminfo')), undefined, 'no status file');
    writeFileSync(join(self, 'status'), statusWith(USER_CAPS));
    assert.equal(readMemoryLockLimits(self, join(dir, 'meminfo')), limits(24018860n * 1024n, 65536n, false));
    assert.ok(readMemoryLockLimits() !== undefined, "this Linux machine's own /proc");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
