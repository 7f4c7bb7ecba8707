// verify-sig: checks the proofs of `verify-sig` claims (docs/chain.md §3). The node runs verifySys in
// verify mode for every such claim of a transaction: claim.rawData is the signer's public key
// (DER SubjectPublicKeyInfo, P-256 or secp256k1), `proof` a 64-byte r||s ECDSA signature over
// the transaction id. Verify mode has no database, so this touches none.

import { Checksum256, check, verifySignature } from "../sdk/index";
import { Claim } from "../sdk/auth/index";

@service("verify-sig")
export class VerifySig {
  /** Aborts "signature invalid" unless `proof` signs `transactionHash` with the claim's key. */
  @action
  verifySys(transactionHash: Checksum256, claim: Claim, proof: Uint8Array): void {
    check(verifySignature(claim.rawData, transactionHash.bytes, proof), "signature invalid");
  }
}
