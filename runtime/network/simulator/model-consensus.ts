// The producer sets of the simulator's chain (docs/p2p.md §6.1), kept in each model block as the
// status row keeps them: the set in force after the block and, while a change is pending, the
// next set with the block that made the change. Producers are node indexes.

export interface ModelConsensus {
  readonly producers: readonly number[];
  readonly next: { readonly producers: readonly number[]; readonly start: number } | null;
}

/**
 * The consensus after block `num`, which starts under `starting` (startingConsensus): the block
 * may start a change (`change`), which it may only when none is pending ("Consensus update
 * pending").
 */
export function consensusAfter(starting: ModelConsensus, num: number, change?: readonly number[]): ModelConsensus {
  if (!change) return starting;
  if (starting.next) throw new Error('Consensus update pending');
  return { producers: starting.producers, next: { producers: [...change].sort((a, b) => a - b), start: num } };
}

/** The producer sets after a block (`consensus` of a model block): the first producers, 0 .. producerCount - 1, until a run changes them. */
export function consensusOf(block: { readonly consensus?: ModelConsensus } | undefined, producerCount: number): ModelConsensus {
  return block?.consensus ?? { producers: [...Array(producerCount).keys()], next: null };
}

/**
 * The consensus a block starts under, made on a parent whose consensus is `parent` and whose
 * commitNum is `parentCommitNum`: a pending change whose block is irreversible by the parent ends
 * joint consensus before the block runs (startingConsensus in the node).
 */
export function startingConsensus(parent: ModelConsensus, parentCommitNum: number): ModelConsensus {
  return parent.next && parent.next.start <= parentCommitNum ? { producers: parent.next.producers, next: null } : parent;
}

/** The active sets: the current one and, during joint consensus, the next one. */
export function consensusGroups(consensus: ModelConsensus): (readonly number[])[] {
  return consensus.next ? [consensus.producers, consensus.next.producers] : [consensus.producers];
}

export function sameProducers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** A stable text of a consensus, for block ids. */
export function consensusText(consensus: ModelConsensus): string {
  const next = consensus.next ? `>${consensus.next.producers.join(',')}@${consensus.next.start}` : '';
  return `${consensus.producers.join(',')}${next}`;
}
