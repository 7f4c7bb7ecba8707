import { sha256 } from '../crypto/sha256.js';
import { isEmptyClaim } from '../chain/block-signing.js';
import { claimProofError } from '../chain/claim-proofs.js';
import type { Executor } from '../wasm/executor.js';
import type { SignedMessage } from './messages/index.js';

/**
 * Whether a signed P2P message verifies (docs/p2p.md §2.0): its signer claim's verify service
 * checks the signature over sha256 of the preimage; the empty claim always passes. A failure
 * drops the message and keeps the link, so it is an answer, not an error.
 */
export function verifiesMessage(executor: Executor, message: SignedMessage): boolean {
  const claim = message.body.signer;
  if (isEmptyClaim(claim)) return true;
  return claimProofError(executor, { claim, proof: message.signature, signedData: message.preimage, digest: sha256(message.preimage) }) === undefined;
}
