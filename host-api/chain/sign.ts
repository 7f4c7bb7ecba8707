import { signDigest, type KeyPair } from '../crypto/keys.js';
import { SignedTransaction, Transaction, transactionId } from '../types/index.js';

/** The verify service of the keys clients sign with (docs/formats.md: P-256 and secp256k1). */
export const KEY_VERIFY_SERVICE = 'verify-sig';

/** Signs a packed transaction: one proof per key, each r||s over the transaction id. */
export function signPackedTransaction(packed: Uint8Array, keys: readonly KeyPair[]): Uint8Array {
  const id = transactionId(packed);
  return SignedTransaction.pack({ transaction: packed, proofs: keys.map((k) => signDigest(k, id)), subjectiveData: null });
}

/**
 * Packs and signs a transaction. The transaction's claims must already name the keys' verify
 * services, in the same order.
 */
export function signTransaction(transaction: unknown, keys: readonly KeyPair[]): Uint8Array {
  return signPackedTransaction(Transaction.pack(transaction), keys);
}

/**
 * A transaction of `actions` under `tapos` that claims each of `keys` for verify-sig and carries
 * their signatures: its id and the packed SignedTransaction.
 */
export function keySignedTransaction(tapos: unknown, actions: readonly unknown[], keys: readonly KeyPair[]): { id: Uint8Array; signed: Uint8Array } {
  const packed = Transaction.pack({ tapos, actions, claims: keys.map((k) => ({ service: KEY_VERIFY_SERVICE, rawData: k.publicKey })) });
  return { id: transactionId(packed), signed: signPackedTransaction(packed, keys) };
}
