// Whether the database cache can be held locked in memory: status `slow` (docs/administration.md §2: "the database
// cache could not be locked in memory; … insufficient RAM or permissions").
//
// tsibase locks no pages itself: Node.js has no mlock(2) without a native addon, and LMDB's cache
// is the kernel's page cache of the data file. So the node checks, once at start, what locking a
// cache of the configured size (config `database_cache_size`) would run into, from the kernel:
//   - RAM: the size exceeds MemAvailable of /proc/meminfo;
//   - permission: the size exceeds the soft RLIMIT_MEMLOCK ("Max locked memory" of
//     /proc/self/limits) and the process lacks CAP_IPC_LOCK (bit 14 of CapEff in
//     /proc/self/status), the capability that lifts that limit.
// Without those files (not Linux, or hidden by a sandbox) there is no evidence and no verdict.

import { join } from 'node:path';
import { MetricsError } from './errors.js';
import { parseDecimal, readProcFile } from './proc-text.js';

/** What the kernel says about locking memory for this process. */
export interface MemoryLockLimits {
  /** MemAvailable in bytes: memory that can be had without swapping. */
  readonly availableBytes: bigint;
  /** The soft RLIMIT_MEMLOCK in bytes; null = unlimited. */
  readonly lockLimitBytes: bigint | null;
  /** CAP_IPC_LOCK is effective, so the lock limit does not apply. */
  readonly canIgnoreLockLimit: boolean;
}

/** capabilities(7): CAP_IPC_LOCK. */
const CAP_IPC_LOCK = 14n;

function lineOf(text: string, pattern: RegExp, source: string, what: string): RegExpExecArray {
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) return match;
  }
  throw new MetricsError('METRICS_BAD_PROC', `${source}: no ${what} line`);
}

/** MemAvailable of /proc/meminfo (proc(5): `MemAvailable:  <n> kB`), in bytes. */
export function parseMemAvailable(text: string, source = 'meminfo'): bigint {
  const match = lineOf(text, /^MemAvailable:\s+(\S+) kB$/, source, 'MemAvailable');
  return parseDecimal(match[1]!, `${source} MemAvailable`) * 1024n;
}

/** The soft limit of `Max locked memory` in /proc/<pid>/limits, in bytes; null = unlimited. */
export function parseLockLimit(text: string, source = 'limits'): bigint | null {
  const match = lineOf(text, /^Max locked memory\s+(\S+)\s+\S+\s+bytes\s*$/, source, 'Max locked memory');
  return match[1] === 'unlimited' ? null : parseDecimal(match[1]!, `${source} Max locked memory`);
}

/** Whether CapEff of /proc/<pid>/status (a hexadecimal bit set) holds CAP_IPC_LOCK. */
export function parseCanIgnoreLockLimit(text: string, source = 'status'): boolean {
  const match = lineOf(text, /^CapEff:\s+([0-9a-f]+)$/, source, 'CapEff');
  return ((BigInt(`0x${match[1]}`) >> CAP_IPC_LOCK) & 1n) === 1n;
}

/** The limits from `<procDir>/limits`, `<procDir>/status` and `meminfo`; undefined without /proc. */
export function readMemoryLockLimits(procDir = '/proc/self', meminfo = '/proc/meminfo'): MemoryLockLimits | undefined {
  const memory = readProcFile(meminfo);
  const limits = readProcFile(join(procDir, 'limits'));
  const status = readProcFile(join(procDir, 'status'));
  if (memory === undefined || limits === undefined || status === undefined) return undefined;
  return {
    availableBytes: parseMemAvailable(memory, meminfo),
    lockLimitBytes: parseLockLimit(limits, join(procDir, 'limits')),
    canIgnoreLockLimit: parseCanIgnoreLockLimit(status, join(procDir, 'status')),
  };
}

/** Why a cache of `bytes` could not be locked in memory under `limits`; empty when it could. */
export function cacheLockProblems(bytes: bigint, limits: MemoryLockLimits): string[] {
  const problems: string[] = [];
  if (bytes > limits.availableBytes) problems.push(`only ${limits.availableBytes} bytes of RAM are available (MemAvailable)`);
  if (!limits.canIgnoreLockLimit && limits.lockLimitBytes !== null && bytes > limits.lockLimitBytes) {
    problems.push(`the locked-memory limit is ${limits.lockLimitBytes} bytes (RLIMIT_MEMLOCK) and the process lacks CAP_IPC_LOCK`);
  }
  return problems;
}
