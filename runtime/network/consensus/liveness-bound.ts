// How long after the faults end the producers may take to make a block irreversible again
// (docs/p2p.md "What we build" 5), from the consensus timeout the faults left (it grows x1.5 at
// each expiry while they last). The simulator checks its runs against it, and so do the chaos
// runs of real nodes (tests/lib/chaos), which add the time their links take to come back.

/** The most faulty producers a BFT set of n tolerates: f of 3f + 1. */
export function maxFaulty(producers: number): number {
  return Math.floor((producers - 1) / 3);
}

export interface LivenessInputs {
  readonly algorithm: 'cft' | 'bft';
  /** The sizes of the producer sets the run passes through, the first one first. */
  readonly sets: readonly number[];
  /** The largest consensus timeout among the producers when the faults end. */
  readonly largestTimeoutMs: number;
  readonly blockIntervalMs: number;
}

/**
 * CFT: a few elections at the timeout the faults left (the timer runs T..2T, and a split vote
 * grows T again), then a round of blocks and confirms.
 *
 * BFT: the producers may have to pass through up to f terms whose leader cannot lead (f of each
 * set the run passes through, since a change of the set starts the round robin afresh), plus a few
 * whose views were out of step when the faults ended, each lasting one view-change timeout, which
 * grows x1.5 at each term without a commit; then a round of blocks, prepares and commits.
 */
export function livenessBoundMs(inputs: LivenessInputs): number {
  const { algorithm, sets, largestTimeoutMs, blockIntervalMs } = inputs;
  if (algorithm === 'cft') return 8 * largestTimeoutMs + 20 * blockIntervalMs;
  const terms = sets.reduce((sum, n) => sum + maxFaulty(n), 0) + 4;
  let total = 0;
  for (let t = 0, timeout = largestTimeoutMs; t < terms; t++, timeout *= 1.5) total += timeout;
  return total + 20 * blockIntervalMs;
}
