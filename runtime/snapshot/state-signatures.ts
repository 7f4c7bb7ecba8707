// Producers' signatures on a state checksum (docs/p2p.md §7.2): a producer signs
// StateSignatureInfo for its claim's verify service; an empty claim signs nothing and always
// verifies. A snapshot is usable with the weak threshold of the current producers' signatures.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import type { Consensus, Producer } from '../../host-api/types/index.js';
import type { StateChecksum, StateSignature } from '../../host-api/types/native.js';
import { isEmptyClaim } from '../chain/block-signing.js';
import type { ClaimVerifier } from '../chain/interface.js';
import { producersOf } from '../chain/consensus.js';
import { sha256 } from '../crypto/sha256.js';
import type { Signer } from '../keys/signer.js';
import { stateSignatureInfo } from './snapshot-rows.js';

/** `producer`'s signature on `checksum`; `signer` is absent for an empty claim. */
export function signState(checksum: StateChecksum, producer: Producer, signer: Signer | undefined): StateSignature {
  const rawData = signer ? signer(sha256(stateSignatureInfo(checksum))) : new Uint8Array(0);
  return { account: producer.name, claim: producer.auth, rawData };
}

/** Why `signature` fails to verify over `checksum` (its claim's verify service, by `claims`), or undefined. */
export function stateSignatureFailure(claims: ClaimVerifier, checksum: StateChecksum, signature: StateSignature): Error | undefined {
  if (isEmptyClaim(signature.claim)) return undefined;
  const signedData = stateSignatureInfo(checksum);
  return claims.proofError({ claim: signature.claim, proof: signature.rawData, signedData, digest: sha256(signedData) });
}

/** The producer of `consensus` that `signature` is by (same account and claim), if any. */
export function signingProducer(consensus: Consensus, signature: StateSignature): Producer | undefined {
  return producersOf(consensus).find((p) => p.name === signature.account && p.auth.service === signature.claim.service
    && equalBytes(p.auth.rawData, signature.claim.rawData));
}

/** How many producers of `consensus` must sign a snapshot: 1 for CFT, (n+2)/3 for BFT (psinode's rule). */
export function weakThreshold(consensus: Consensus): number {
  return 'CftConsensus' in consensus.data ? 1 : Math.floor((producersOf(consensus).length + 2) / 3);
}

/** load-snapshot's threshold for a file: 1 for CFT, n/3 + 1 for BFT (psibase's load-snapshot; docs/p2p.md §7.3). */
export function fileWeakThreshold(consensus: Consensus): number {
  return 'CftConsensus' in consensus.data ? 1 : Math.floor(producersOf(consensus).length / 3) + 1;
}

/** Whether `signatures` are enough for a peer to take a snapshot under `consensus` (weakThreshold). */
export function enoughSignatures(consensus: Consensus, signatures: readonly StateSignature[]): boolean {
  return signingProducers(consensus, signatures).size >= weakThreshold(consensus);
}

/** The distinct producers of `consensus` among `signatures` (only those that verified should be passed). */
export function signingProducers(consensus: Consensus, signatures: readonly StateSignature[]): Set<bigint> {
  const names = new Set<bigint>();
  for (const s of signatures) if (signingProducer(consensus, s)) names.add(s.account);
  return names;
}
