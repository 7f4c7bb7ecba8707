import { sha256 } from '@noble/hashes/sha2.js';
import { signDigest, type KeyPair } from '../crypto/keys.js';
import { SignedTransaction, Transaction } from '../types/index.js';

/**
 * Packs and signs a transaction: one proof per key, each r||s over the transaction id. The
 * transaction's claims must already name the keys' verify services, in the same order.
 */
export function signTransaction(transaction: unknown, keys: readonly KeyPair[]): Uint8Array {
  const packed = Transaction.pack(transaction);
  const id = sha256(packed);
  return SignedTransaction.pack({ transaction: packed, proofs: keys.map((k) => signDigest(k, id)), subjectiveData: null });
}
