import { bytesToHex } from '../../host-api/encoding/hex.js';
import { sha256 } from '../crypto/sha256.js';
import { isEmptyClaim } from '../chain/block-signing.js';
import { claimProofError } from '../chain/claim-proofs.js';
import type { Claim } from '../../host-api/types/index.js';
import type { Executor } from '../wasm/executor.js';
import { NativeRowCache } from '../wasm/native-row-cache.js';
import type { SignedMessage } from './messages/index.js';

/**
 * The verdicts already reached, by claim, digest and signature. The same signed message comes
 * again and again (a block's commit proof from every peer that streams the block, and again when a
 * peer streams it anew after a fork switch; a commit first as a message and then in a proof; a
 * relayed message at every hop), and each check runs the verify service and its curve arithmetic
 * on the main thread: a node behind its peers spent its time on them and stopped answering (the
 * chaos runs found it). A verdict holds as long as the verify services' code does, so the cache
 * goes whenever the store's code rows change (NativeRowCache).
 */
const verdicts = new NativeRowCache<string, { verdict?: boolean }>(() => ({}));

function verdictKey(claim: Claim, digest: Uint8Array, signature: Uint8Array): string {
  return `${claim.service}:${bytesToHex(claim.rawData)}:${bytesToHex(digest)}:${bytesToHex(signature)}`;
}

/**
 * Whether a signed P2P message verifies (docs/p2p.md §2.0): its signer claim's verify service
 * checks the signature over sha256 of the preimage; the empty claim always passes. A failure
 * drops the message and keeps the link, so it is an answer, not an error.
 */
export function verifiesMessage(executor: Executor, message: SignedMessage): boolean {
  const claim = message.body.signer;
  if (isEmptyClaim(claim)) return true;
  const digest = sha256(message.preimage);
  const entry = verdicts.get(executor.store, verdictKey(claim, digest, message.signature));
  entry.verdict ??= claimProofError(executor, { claim, proof: message.signature, signedData: message.preimage, digest }) === undefined;
  return entry.verdict;
}
