import { join } from 'node:path';
import { generateKeyPair, privateKeyToPkcs8, signDigest, type KeyPair } from '../../host-api/crypto/keys.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { KeysError } from './errors.js';
import { KEYS_FILE, readKeyFile, writeKeyFile, type StoredKey } from './key-file.js';
import type { Signer } from './signer.js';
import { GENERATED_KEY_CURVE, VERIFY_SIG, keyOf, keyPairFromRawData, requireVerifyService, type Key } from './verify-service.js';

// Keys the node holds in software (to sign blocks, for instance), kept in the node's directory.

export class SoftwareKeyStore {
  /** By the hex of the public key, in the order they were added. */
  private readonly pairs = new Map<string, KeyPair>();

  private constructor(private readonly dir: string) {}

  /** The store of the node directory `dir`, with the keys it holds already. */
  static open(dir: string): SoftwareKeyStore {
    const store = new SoftwareKeyStore(dir);
    for (const [index, stored] of readKeyFile(dir).entries()) {
      try {
        requireVerifyService(stored.service);
        store.remember(keyPairFromRawData(stored.privateKey));
      } catch (err) {
        throw new KeysError('KEYS_BAD_FILE', `${join(dir, KEYS_FILE)}: keys[${index}]: ${(err as Error).message}`, { cause: err });
      }
    }
    return store;
  }

  list(): Key[] {
    return [...this.pairs.values()].map((pair) => keyOf(pair.publicKey));
  }

  /**
   * Imports the private key `rawData` (hex PKCS#8), or generates one when it is missing, and
   * returns its public key. Importing a key the store holds returns it without storing it twice.
   */
  add(service: string, rawData?: string): Key {
    requireVerifyService(service);
    const pair = rawData === undefined ? generateKeyPair(GENERATED_KEY_CURVE) : keyPairFromRawData(rawData);
    const key = keyOf(pair.publicKey);
    if (this.pairs.has(key.rawData)) return key;
    this.remember(pair);
    try {
      writeKeyFile(this.dir, this.stored());
    } catch (err) {
      this.pairs.delete(key.rawData);
      throw err;
    }
    return key;
  }

  /** Signs with the key whose DER public key is `publicKey`; undefined when the store lacks it. */
  signer(publicKey: Uint8Array): Signer | undefined {
    const pair = this.pairs.get(bytesToHex(publicKey));
    return pair && ((digest) => signDigest(pair, digest));
  }

  private remember(pair: KeyPair): void {
    this.pairs.set(bytesToHex(pair.publicKey), pair);
  }

  private stored(): StoredKey[] {
    return [...this.pairs.values()].map((pair) => ({ service: VERIFY_SIG, privateKey: bytesToHex(privateKeyToPkcs8(pair)) }));
  }
}
