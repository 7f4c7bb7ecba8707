// CPU time of a node process, or of one of its threads, read from Linux /proc: what the
// benchmarks put next to their rates, so a rate measured on a busy machine can still be judged.
import { readFileSync } from 'node:fs';
import { clockTicksPerSecond } from '../../runtime/metrics/clock-ticks.js';
import { parseThreadStat } from '../../runtime/metrics/thread-stats.js';

/** User + system CPU seconds of a process, or of one of its threads. */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = parseThreadStat(readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8'));
  return Number(stat.userTicks + stat.systemTicks) / clockTicksPerSecond();
}
