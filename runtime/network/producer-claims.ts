import { equalBytes } from '../../host-api/encoding/bytes.js';
import type { Claim } from '../../host-api/types/index.js';
import { isEmptyClaim, type BlockSigners } from '../chain/block-signing.js';
import type { ChainReader } from '../chain/interface.js';
import { activeProducers, claimAmong } from '../chain/consensus.js';
import { sha256 } from '../crypto/sha256.js';
import type { ProducerName } from './routing/routing-io.js';

// What CFT and BFT in the node share about producer claims (docs/p2p.md §2.0): a consensus
// message is signed for its producer's claim, and a received one counts only when signed for it.

/** The claim of one of the active producers of the chain's status row; undefined for anyone else. */
export function claimOf(chain: ChainReader, producer: ProducerName): Claim | undefined {
  const status = chain.status;
  return status ? claimAmong(activeProducers(status.consensus), producer) : undefined;
}

export function sameClaim(a: Claim, b: Claim): boolean {
  return a.service === b.service && equalBytes(a.rawData, b.rawData);
}

/**
 * The signature of `preimage` for `claim`: empty for the empty claim (unsigned, as its blocks
 * are); undefined when this node holds no key for the claim.
 */
export function signForClaim(blockSigners: BlockSigners, claim: Claim, preimage: Uint8Array): Uint8Array | undefined {
  if (isEmptyClaim(claim)) return new Uint8Array(0);
  const sign = blockSigners(claim);
  return sign && new Uint8Array(sign(sha256(preimage)));
}
