// The producer sets of the simulator's chain (docs/p2p.md §6.1), kept in each model block as the
// status row keeps them: the set in force after the block and, while a change is pending, the
// next set with the block that made the change. Producers are node indexes.

/** A producer set and its algorithm (absent: CFT). */
export interface ModelSet {
  readonly producers: readonly number[];
  readonly algorithm?: 'bft';
}

export interface ModelConsensus extends ModelSet {
  readonly next: (ModelSet & { readonly start: number }) | null;
}

/**
 * The consensus after block `num`, which starts under `starting` (startingConsensus): the block
 * may start a change (`change`), which it may only when none is pending ("Consensus update
 * pending").
 */
export function consensusAfter(starting: ModelConsensus, num: number, change?: ModelSet): ModelConsensus {
  if (!change) return starting;
  if (starting.next) throw new Error('Consensus update pending');
  return { ...setOf(starting), next: { ...setOf(change), producers: [...change.producers].sort((a, b) => a - b), start: num } };
}

/** The set a change asks for. */
export function modelSetOf(change: { readonly producers: readonly number[]; readonly algorithm: 'cft' | 'bft' }): ModelSet {
  return change.algorithm === 'bft' ? { producers: change.producers, algorithm: 'bft' } : { producers: change.producers };
}

/** A set with its algorithm, without anything else. */
export function setOf(set: ModelSet): ModelSet {
  return set.algorithm ? { producers: set.producers, algorithm: set.algorithm } : { producers: set.producers };
}

/** Whether two sets have the same producers and algorithm. */
export function sameSet(a: ModelSet, b: ModelSet): boolean {
  return a.algorithm === b.algorithm && sameProducers(a.producers, b.producers);
}

/**
 * The producer sets after a block (`consensus` of a model block): until a run changes them, the
 * first producers, 0 .. producerCount - 1, running the run's first algorithm.
 */
export function consensusOf(
  block: { readonly consensus?: ModelConsensus } | undefined,
  first: { readonly producerCount: number; readonly algorithm: 'cft' | 'bft' },
): ModelConsensus {
  const producers = [...Array(first.producerCount).keys()];
  return block?.consensus ?? (first.algorithm === 'bft' ? { producers, algorithm: 'bft', next: null } : { producers, next: null });
}

/**
 * The consensus a block starts under, made on a parent whose consensus is `parent` and whose
 * commitNum is `parentCommitNum`: a pending change whose block is irreversible by the parent ends
 * joint consensus before the block runs (startingConsensus in the node).
 */
export function startingConsensus(parent: ModelConsensus, parentCommitNum: number): ModelConsensus {
  return parent.next && parent.next.start <= parentCommitNum ? { ...setOf(parent.next), next: null } : parent;
}

/** The active sets: the current one and, during joint consensus, the next one. */
export function consensusGroups(consensus: ModelConsensus): (readonly number[])[] {
  return activeSets(consensus).map((set) => set.producers);
}

/** The active sets with their algorithms. */
export function activeSets(consensus: ModelConsensus): ModelSet[] {
  return consensus.next ? [setOf(consensus), setOf(consensus.next)] : [setOf(consensus)];
}

export function sameProducers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** A stable text of a consensus, for block ids. */
export function consensusText(consensus: ModelConsensus): string {
  const text = (set: ModelSet) => `${set.producers.join(',')}${set.algorithm ? `:${set.algorithm}` : ''}`;
  const next = consensus.next ? `>${text(consensus.next)}@${consensus.next.start}` : '';
  return `${text(consensus)}${next}`;
}
