import { writeFileSync } from 'node:fs';

// The name a signature worker thread gives itself, so that per-thread CPU figures (the perf
// report's `tasks`, the benchmarks' CPU per thread) tell it from V8's threads: Node leaves every
// thread named after the process.

/** The thread's name (comm keeps 15 characters). */
export const SIGNATURE_THREAD_NAME = 'sig-verify';

/** Names the calling thread (Linux: /proc/thread-self/comm); elsewhere it keeps the process's name. */
export function nameSignatureThread(): void {
  try {
    writeFileSync('/proc/thread-self/comm', SIGNATURE_THREAD_NAME);
  } catch {
    // No /proc (another system): the name only labels figures.
  }
}
