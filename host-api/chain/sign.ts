import { signDigest, type KeyPair } from '../crypto/keys.js';
import { SignedTransaction, Transaction, transactionId } from '../types/index.js';

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
