import { readFileSync } from 'node:fs';
import { TsibaseError } from '../../host-api/errors.js';
import { fromPem, keyPairFromPkcs8, parsePublicKey, type KeyPair } from '../../host-api/crypto/keys.js';
import { hexToBytes } from '../../host-api/encoding/hex.js';

// Keys as the command line takes them: a PEM or DER file holding a public key (SPKI) or a
// private key (PKCS#8), or a public key as hex.

function privateKeyFrom(der: Uint8Array, file: string): KeyPair {
  try {
    return keyPairFromPkcs8(der);
  } catch (err) {
    throw new TsibaseError('CLI_BAD_KEY', `${file} is not a P-256 or secp256k1 private key (PKCS#8): ${(err as Error).message}`);
  }
}

/** A key file's DER bytes and, for PEM, its label. */
function readKeyFile(file: string): { label?: string; der: Uint8Array } {
  const bytes = new Uint8Array(readFileSync(file));
  const text = Buffer.from(bytes).toString('latin1');
  return text.includes('-----BEGIN') ? fromPem(text) : { der: bytes };
}

/** A private key file (PKCS#8, PEM or DER) as a key pair to sign with. */
export function readPrivateKey(file: string): KeyPair {
  return privateKeyFrom(readKeyFile(file).der, file);
}

/** A key argument: its public key (SubjectPublicKeyInfo) and, when it was a private key, the pair. */
export interface KeyArgument {
  readonly publicKey: Uint8Array;
  readonly pair?: KeyPair;
}

/** A key from a PEM/DER public key file, a private key file, or hex. */
export function readKeyArgument(source: string): KeyArgument {
  if (/^[0-9a-fA-F]+$/.test(source) && source.length % 2 === 0 && source.length > 64) {
    const der = hexToBytes(source);
    parsePublicKey(der);
    return { publicKey: der };
  }
  const { label, der } = readKeyFile(source);
  if (label === 'PUBLIC KEY') {
    parsePublicKey(der);
    return { publicKey: der };
  }
  if (label === undefined) {
    try {
      parsePublicKey(der);
      return { publicKey: der };
    } catch {
      // not a public key: a private key file in DER, then
    }
  }
  const pair = privateKeyFrom(der, source);
  return { publicKey: pair.publicKey, pair };
}

/** The public key (SubjectPublicKeyInfo) of a key argument. */
export function readPublicKey(source: string): Uint8Array {
  return readKeyArgument(source).publicKey;
}
