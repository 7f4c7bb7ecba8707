import type { Consensus } from '../../host-api/types/index.js';
import type { JointConsensus } from '../../host-api/types/native.js';
import { activeSets, producersOf } from '../chain/consensus.js';
import { bftGroupsOf } from './consensus/driver.js';
import type { BftGroup } from './consensus/bft-io.js';
import type { ProducerSet } from './consensus/driver-io.js';

// The producer sets of a chain's consensus as the consensus driver reads them (docs/p2p.md §5.1,
// §6.1): the current set and, during joint consensus, the next one, each with its algorithm.

/** The active sets of `consensus`, their names in the chain's order. */
export function producerSetsOf(consensus: JointConsensus): ProducerSet[] {
  return activeSets(consensus).map(setOf);
}

function setOf(consensus: Consensus): ProducerSet {
  return { algorithm: 'CftConsensus' in consensus.data ? 'cft' : 'bft', producers: producersOf(consensus).map((p) => p.name) };
}

/** The producer sets of a consensus as BFT reads them: each with its algorithm, names sorted as u64 (§5.1). */
export function bftGroups(consensus: JointConsensus): BftGroup[] {
  return bftGroupsOf(producerSetsOf(consensus));
}
