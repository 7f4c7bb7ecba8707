// CPU time of a node process, or of one of its threads, read from Linux /proc: what the
// benchmarks put next to their rates, so a rate measured on a busy machine can still be judged.
import { readFileSync } from 'node:fs';
import { clockTicksPerSecond } from '../../runtime/metrics/clock-ticks.js';
import { parseThreadStat, readThreadFigures } from '../../runtime/metrics/thread-stats.js';

/** User + system CPU seconds of a process, or of one of its threads. */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = parseThreadStat(readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8'));
  return Number(stat.userTicks + stat.systemTicks) / clockTicksPerSecond();
}

/**
 * User + system CPU seconds of each group of a process's threads (thread-stats.ts: main, libuv,
 * v8, or the thread's own name: `node` for Node's platform threads, which collect garbage and
 * compile, `sig-verify` for the signature workers).
 */
export function threadGroupSeconds(pid: number): Map<string, number> {
  const groups = new Map<string, number>();
  for (const thread of readThreadFigures(`/proc/${pid}`, pid)) {
    groups.set(thread.group, (groups.get(thread.group) ?? 0) + Number(thread.user + thread.system) / 1e6);
  }
  return groups;
}
