import { keyPairFromPkcs8, privateKeyToPkcs8, type KeyCurve, type KeyPair } from '../../host-api/crypto/keys.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import { KeysError } from './errors.js';

// The verify service whose keys the node holds, and what its key information means (docs/administration.md §2:
// a Key's rawData depends on the verify service). verify-sig (docs/design.md decision 5): public keys
// are DER SubjectPublicKeyInfo, private keys PKCS#8, P-256 or secp256k1.

export const VERIFY_SIG = 'verify-sig';

/** The curve of keys the node generates; the admin API has no field to choose another. */
export const GENERATED_KEY_CURVE: KeyCurve = 'P-256';

/** A public key as the admin API shows it: the verify service and the hex of its public key. */
export interface Key {
  readonly service: string;
  readonly rawData: string;
}

export function requireVerifyService(service: string): void {
  if (service !== VERIFY_SIG) {
    throw new KeysError('KEYS_UNKNOWN_SERVICE', `the node holds keys for the verify service '${VERIFY_SIG}' only, not '${service}'`);
  }
}

export function keyOf(publicKey: Uint8Array): Key {
  return { service: VERIFY_SIG, rawData: bytesToHex(publicKey) };
}

/** The key pair in `rawData`, the hex of a PKCS#8 private key; KEYS_BAD_REQUEST naming the problem. */
export function keyPairFromRawData(rawData: string): KeyPair {
  let der: Uint8Array;
  let pair: KeyPair;
  try {
    der = hexToBytes(rawData);
    pair = keyPairFromPkcs8(der);
  } catch (err) {
    throw new KeysError('KEYS_BAD_REQUEST', `rawData: ${(err as Error).message}`, { cause: err });
  }
  // keyPairFromPkcs8 reads the private scalar only; the rest must be what that scalar implies.
  if (!equalBytes(privateKeyToPkcs8(pair), der)) {
    throw new KeysError('KEYS_BAD_REQUEST', 'rawData: the PKCS#8 key has trailing bytes or a public key that does not match its private key');
  }
  return pair;
}
