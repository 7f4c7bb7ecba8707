// The unit of utime and stime in /proc/<pid>/task/<tid>/stat. Node has no sysconf, so ask
// getconf, once per process (the value is fixed at kernel build time); 100 is the Linux default.

import { execFileSync } from 'node:child_process';

const LINUX_DEFAULT = 100;
let ticksPerSecond: number | undefined;

function askGetconf(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isSafeInteger(ticks) && ticks > 0 ? ticks : LINUX_DEFAULT;
  } catch {
    return LINUX_DEFAULT;
  }
}

/** Clock ticks per second (sysconf(_SC_CLK_TCK)), read on first use. */
export function clockTicksPerSecond(): number {
  return (ticksPerSecond ??= askGetconf());
}
