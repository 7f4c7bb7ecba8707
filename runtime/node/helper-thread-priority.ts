import { randomFill } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The niceness helper threads get: below the chain thread's, not starved while a core is free. */
const HELPER_NICENESS = 10;

/**
 * Puts the process's helper threads (libuv's threadpool, which checks transaction signatures,
 * and V8's GC and compiler threads) below the main thread, where the chain runs. Each pushed
 * transaction wakes a threadpool thread for its signature check; on a machine with few cores
 * the woken thread otherwise preempts the chain thread as often as not (bench/chain: 10 to 30%
 * more transfers/s with it). Linux only: there `setpriority` on a thread id acts on that thread
 * alone. Threads started later (workers) keep the default priority.
 */
export async function lowerHelperThreadPriority(): Promise<void> {
  if (process.platform !== 'linux') return;
  // libuv starts its threadpool on first use: use it once, so its threads are there to lower.
  await new Promise((resolve) => randomFill(new Uint8Array(1), resolve));
  for (const entry of readdirSync('/proc/self/task')) {
    const tid = Number(entry);
    if (tid === process.pid) continue;
    try {
      setPriority(tid, HELPER_NICENESS);
    } catch (err) {
      // A thread that ended since the listing is not there to lower.
      if ((err as { info?: { code?: string } }).info?.code !== 'ESRCH') throw err;
    }
  }
}
