// A closed-loop load shared by the HTTP benchmarks: a fixed number of concurrent loops, each
// sending its next request when the last one is answered. The loops first run a warm-up that is
// not counted (a fresh node spends its first seconds compiling: V8 tiers up wasm and JS on
// background threads), then the measured window; the queue stays full across the boundary.

export const WARM_UP_SECONDS = 3;
export const SECONDS = 3;

export interface LoadTiming {
  readonly warmUpSeconds: number;
  readonly seconds: number;
}

const DEFAULT_TIMING: LoadTiming = { warmUpSeconds: WARM_UP_SECONDS, seconds: SECONDS };

export interface LoadWindow {
  /** Called when the measured window opens (e.g. to read CPU counters). */
  readonly onStart?: () => void;
  /** Called when it closes, before the requests still in flight are answered. */
  readonly onEnd?: () => void;
}

/** Completions per second, within the measured window, of `concurrency` loops of `request`. */
export async function closedLoopRate(
  concurrency: number, request: () => Promise<void>, window: LoadWindow = {}, timing: LoadTiming = DEFAULT_TIMING,
): Promise<number> {
  const start = performance.now();
  const windowStart = start + timing.warmUpSeconds * 1000;
  const windowEnd = windowStart + timing.seconds * 1000;
  const timers = [
    setTimeout(() => window.onStart?.(), windowStart - start),
    setTimeout(() => window.onEnd?.(), windowEnd - start),
  ];
  let completed = 0;
  try {
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < windowEnd) {
        await request();
        const now = performance.now();
        if (now >= windowStart && now < windowEnd) completed++;
      }
    }));
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
  return completed / timing.seconds;
}
