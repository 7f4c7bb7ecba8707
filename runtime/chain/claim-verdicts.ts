import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { Claim } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import { withVerdictNow } from '../crypto/signature-verdicts.js';
import type { Executor } from '../wasm/executor.js';
import { NativeRowCache } from '../wasm/native-row-cache.js';
import { isEmptyClaim } from './block-signing.js';
import { claimProofError } from './claim-proofs.js';
import type { ClaimVerifier } from './interface.js';

/**
 * The verdicts already reached, by claim, digest and signature. The same signed bytes come again
 * and again (a block's commit proof from every peer that streams the block, and again when a peer
 * streams it anew after a fork switch; a commit first as a message and then in a proof; a relayed
 * message at every hop), and each check runs the verify service on the main thread: a node behind
 * its peers spent its time on them and stopped answering (the chaos runs found it). A verdict holds as long as the verify services' code does, so the cache goes
 * whenever the store's code rows change (NativeRowCache).
 */
const verdicts = new NativeRowCache<string, { verdict?: boolean }>(() => ({}));

function verdictKey(claim: Claim, digest: Uint8Array, signature: Uint8Array): string {
  return `${claim.service}:${bytesToHex(claim.rawData)}:${bytesToHex(digest)}:${bytesToHex(signature)}`;
}

/**
 * Whether `signature` over `signedData` verifies under `claim` (docs/p2p.md §2.0): the claim's
 * verify service checks it over sha256 of the data, once for the same bytes, given the verdict of
 * the signature check it is expected to make (node:crypto over the data: the bare digest would
 * leave the service's check to @noble/curves, over ten times slower); the empty claim always passes. A failure is an answer (the caller drops what was signed), not an error.
 */
export function claimVerifies(executor: Executor, claim: Claim, signedData: Uint8Array, signature: Uint8Array): boolean {
  if (isEmptyClaim(claim)) return true;
  const digest = sha256(signedData);
  const entry = verdicts.get(executor.store, verdictKey(claim, digest, signature));
  if (entry.verdict === undefined) {
    const expected = withVerdictNow({ key: claim.rawData, digest, signedData, signature });
    entry.verdict = claimProofError(executor, { claim, proof: signature, signedData, digest }, expected) === undefined;
  }
  return entry.verdict;
}

/** The claim verifier over `executor`'s state that the chain hands out (interface.ts). */
export function claimVerifierOf(executor: Executor): ClaimVerifier {
  return {
    verifies: (claim, signedData, signature) => claimVerifies(executor, claim, signedData, signature),
    proofError: (proof) => claimProofError(executor, proof),
  };
}
