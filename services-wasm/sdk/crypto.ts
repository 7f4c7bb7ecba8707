import { ecdsaVerify } from "./host";

/**
 * Verify mode only: whether `signature` (64-byte r||s) signs `digest` (the 32-byte SHA-256 of the
 * signed data, such as a transaction id) for `key` (DER SubjectPublicKeyInfo, P-256 or secp256k1).
 */
export function verifySignature(key: Uint8Array, digest: Uint8Array, signature: Uint8Array): bool {
  return ecdsaVerify(key.dataStart, key.length, digest.dataStart, digest.length, signature.dataStart, signature.length) == 1;
}
