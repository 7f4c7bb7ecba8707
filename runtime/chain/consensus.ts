import type { BlockHeader, Claim, Consensus, Producer } from '../../host-api/types/index.js';
import type { JointConsensus, StatusRow } from '../../host-api/types/native.js';
import { EMPTY_CLAIM } from './block-signing.js';

// Reading the producer set out of the status row's consensus (docs/p2p.md §3.1, §3.3).

/** The producers of a consensus, whichever its algorithm. */
export function producersOf(consensus: Consensus): Producer[] {
  const data = consensus.data;
  return 'CftConsensus' in data ? data.CftConsensus.producers : data.BftConsensus.producers;
}

/** `producer`'s claim among `producers` (the first listed), if it is one of them. */
export function claimAmong(producers: readonly Producer[], producer: bigint): Claim | undefined {
  return producers.find((p) => p.name === producer)?.auth;
}

/** The active producers: the current set's and, during joint consensus, the next set's (docs/p2p.md §6.1). */
export function activeProducers(consensus: JointConsensus): Producer[] {
  return consensus.next ? [...producersOf(consensus.current), ...producersOf(consensus.next.consensus)] : producersOf(consensus.current);
}

/** The active sets: the current one, and the next one during joint consensus. */
export function activeSets(consensus: JointConsensus): Consensus[] {
  return consensus.next ? [consensus.current, consensus.next.consensus] : [consensus.current];
}

/** The names of each active set: the current one, and the next one during joint consensus. */
export function producerGroups(consensus: JointConsensus): bigint[][] {
  return activeSets(consensus).map((c) => producersOf(c).map((p) => p.name));
}

/** Whether `producer` is the only producer of every active set (a sole producer commits its own blocks at once). */
export function isSoleProducer(consensus: JointConsensus, producer: bigint): boolean {
  return producerGroups(consensus).every((names) => names.length === 1 && names[0] === producer);
}

/**
 * The consensus a block starts under: a pending change whose block is irreversible by the head
 * ends joint consensus (docs/p2p.md §6.1).
 */
export function startingConsensus(consensus: JointConsensus, head: BlockHeader): JointConsensus {
  const next = consensus.next;
  return next && next.blockNum <= head.commitNum ? { current: next.consensus, next: null } : consensus;
}

/** docs/p2p.md §3.4: one producer and no pending change (or no producers at all). */
export function isSingleProducer(consensus: JointConsensus): boolean {
  const count = producersOf(consensus.current).length;
  return count === 0 || (count === 1 && consensus.next === null);
}

/**
 * The irreversible block with `head` as the head, where `consensus` is the consensus after it
 * (the status row's) and consensus established `committed` here. A header's commitNum counts
 * under CFT; under BFT only a single producer's does, and otherwise the commits or commit proofs
 * BFT checked are what makes blocks irreversible (docs/p2p.md §5.4).
 */
export function irreversibleAt(consensus: JointConsensus, head: BlockHeader, committed: number): number {
  const byHeader = 'CftConsensus' in consensus.current.data || isSingleProducer(consensus) ? head.commitNum : 0;
  return Math.min(head.blockNum, Math.max(byHeader, committed));
}

/** The consensus the block after the status row's head starts under. */
export function nextBlockConsensus(status: StatusRow): JointConsensus {
  return status.head ? startingConsensus(status.consensus, status.head.header) : status.consensus;
}

/**
 * The claim `producer`'s next block (after the status row's head) is signed for, under the
 * consensus that block starts under: the current set's first; during joint consensus the next
 * set's is accepted too (docs/p2p.md §6.1). Undefined when it is not a producer there. Before
 * boot (no status row) there are no producers and anyone's block carries the empty claim: it is
 * unsigned.
 */
export function producerClaim(status: StatusRow | undefined, producer: bigint): Claim | undefined {
  if (!status) return EMPTY_CLAIM;
  return claimAmong(activeProducers(nextBlockConsensus(status)), producer);
}
