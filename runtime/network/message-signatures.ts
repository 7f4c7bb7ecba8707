import type { ClaimVerifier } from '../chain/interface.js';
import type { SignedMessage } from './messages/index.js';

/**
 * Whether a signed P2P message verifies (docs/p2p.md §2.0): its signer claim's verify service
 * checks the signature over sha256 of the preimage, once for the same bytes (the chain's ClaimVerifier);
 * the empty claim always passes. A failure drops the message and keeps the link, so it is an
 * answer, not an error.
 */
export function verifiesMessage(claims: ClaimVerifier, message: SignedMessage): boolean {
  return claims.verifies(message.body.signer, message.preimage, message.signature);
}
