// Tiny timing helpers shared by the benchmarks: warm up, then run for a fixed wall time and
// report operations per second.

export interface Rate {
  opsPerSecond: number;
  iterations: number;
  seconds: number;
}

/** Calls `op` repeatedly for about `seconds` (after a warm-up) and returns its rate. */
export function measure(op: () => unknown, seconds = 1, batch = 1000): Rate {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) for (let i = 0; i < batch; i++) op();
  let iterations = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < batch; i++) op();
    iterations += batch;
    now = performance.now();
  }
  const elapsed = (now - start) / 1000;
  return { opsPerSecond: iterations / elapsed, iterations, seconds: elapsed };
}

export function formatRate(rate: number): string {
  return Math.round(rate).toLocaleString('en-US');
}

/** Prints one aligned result line: label, rate, and an optional target verdict. */
export function report(label: string, rate: Rate, target?: number): void {
  const verdict = target === undefined ? '' : rate.opsPerSecond >= target ? `  (target ${formatRate(target)}: met)` : `  (target ${formatRate(target)}: NOT met)`;
  console.log(`${label.padEnd(48)} ${formatRate(rate.opsPerSecond).padStart(12)} /s${verdict}`);
}
