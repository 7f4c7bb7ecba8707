import type { Claim, Consensus, Producer } from '../../host-api/types/index.js';
import type { StatusRow } from '../../host-api/types/native.js';

// Reading the producer set out of the status row's consensus (docs/p2p.md §3.1, §3.3).

/** The producers of a consensus, whichever its algorithm. */
export function producersOf(consensus: Consensus): Producer[] {
  const data = consensus.data;
  return 'CftConsensus' in data ? data.CftConsensus.producers : data.BftConsensus.producers;
}

/**
 * The claim `producer`'s blocks are signed for under the status row's current consensus;
 * undefined when it is not a producer there. Before boot (no status row) there are no producers
 * and anyone's block carries the empty claim: it is unsigned.
 */
export function producerClaim(status: StatusRow | undefined, producer: bigint): Claim | undefined {
  if (!status) return { service: 0n, rawData: new Uint8Array(0) };
  return producersOf(status.consensus.current).find((p) => p.name === producer)?.auth;
}
