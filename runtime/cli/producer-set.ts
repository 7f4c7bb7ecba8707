import { systemAction } from '../../host-api/boot/system-actions.js';
import { accountNumberFromName, type Action } from '../../host-api/index.js';
import type { ChainClient } from './chain-client.js';

// The chain's producer set as the CLI reads and changes it (producers service, docs/p2p.md
// §6.1): `tsibase producers`, `tsibase producers set`, and `tsibase testnet`.

export type Algorithm = 'CFT' | 'BFT';

/** A producer and the public key its blocks are signed with (none: the empty claim, unsigned blocks). */
export interface ProducerEntry {
  readonly name: string;
  readonly publicKey?: Uint8Array;
}

/** The verify service of producer claims (the node's key store signs with verify-sig keys). */
const CLAIM_SERVICE = 'verify-sig';

function producerList(producers: readonly ProducerEntry[]) {
  return producers.map(({ name, publicKey }) => ({
    name,
    auth: publicKey ? { service: accountNumberFromName(CLAIM_SERVICE), rawData: publicKey } : { service: 0n, rawData: new Uint8Array(0) },
  }));
}

/**
 * The action that makes `producers` the producer set: under `algorithm` (producers::setConsensus),
 * or under the chain's current one when none is given (producers::setProducers). A change takes
 * effect through joint consensus, once the block holding it is irreversible.
 */
export function producerSetAction(producers: readonly ProducerEntry[], algorithm?: Algorithm): Action {
  const prods = producerList(producers);
  if (!algorithm) return systemAction('producers', 'producers.setProducers', { prods });
  const tag = algorithm === 'BFT' ? 'BftConsensus' : 'CftConsensus';
  return systemAction('producers', 'producers.setConsensus', { consensus: { [tag]: { producers: prods } } });
}

export interface ProducerSet {
  readonly algorithm: Algorithm;
  readonly names: readonly string[];
  /** A change not yet in force: its producers, and the block it was made in. */
  readonly pending?: { readonly algorithm: Algorithm; readonly names: readonly string[]; readonly since: number };
}

interface ConsensusJson { CftConsensus?: { producers: { name: string }[] }; BftConsensus?: { producers: { name: string }[] } }

function setOf(consensus: ConsensusJson): { algorithm: Algorithm; names: string[] } {
  const bft = consensus.BftConsensus;
  return { algorithm: bft ? 'BFT' : 'CFT', names: (bft ?? consensus.CftConsensus)?.producers.map((p) => p.name) ?? [] };
}

const CONSENSUS_FIELDS = 'CftConsensus { producers { name } } BftConsensus { producers { name } }';

/** The producers in force on the node's chain, and a pending change. */
export async function producerSetOf(client: ChainClient): Promise<ProducerSet> {
  const data = await client.graphql('producers', `{ consensus { ${CONSENSUS_FIELDS} } nextConsensus { ${CONSENSUS_FIELDS} } jointStart }`) as {
    consensus: ConsensusJson; nextConsensus: ConsensusJson | null; jointStart: number | null;
  };
  const current = setOf(data.consensus);
  if (!data.nextConsensus || data.jointStart === null) return current;
  return { ...current, pending: { ...setOf(data.nextConsensus), since: data.jointStart } };
}
