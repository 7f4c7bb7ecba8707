// The quorum of a producer set under each algorithm (docs/p2p.md §4, §5.1), which CFT and BFT
// both count with while joint consensus joins a set of each (§6.1).

/** A quorum of a CFT producer set of n: n/2 + 1 (integer division). */
export function cftThreshold(n: number): number {
  return Math.floor(n / 2) + 1;
}

/** A quorum of a BFT producer set of n: floor(2n/3) + 1 (docs/p2p.md §5.1). */
export function bftThreshold(n: number): number {
  return Math.floor((n * 2) / 3) + 1;
}

/** psibase's ProducerSet::threshold: the quorum of a set of n under its own algorithm. */
export function quorumOf(algorithm: 'cft' | 'bft', n: number): number {
  return algorithm === 'bft' ? bftThreshold(n) : cftThreshold(n);
}
