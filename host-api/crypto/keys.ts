import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { TsibaseError } from '../errors.js';
import { concatBytes } from '../encoding/bytes.js';
import { bytesToHex, hexToBytes } from '../encoding/hex.js';

// Client-side keys (docs/design.md decision 5): P-256 (default) or secp256k1; public keys travel as DER
// SubjectPublicKeyInfo, private keys as PKCS#8 (PEM for people); signatures are 64-byte r||s
// over SHA-256 of the signed bytes. The DER forms for these two curves have fixed layouts, so
// they are built from their constant prefixes.

export type KeyCurve = 'P-256' | 'secp256k1';

export interface KeyPair {
  readonly curve: KeyCurve;
  /** The 32-byte secret scalar. */
  readonly privateKey: Uint8Array;
  /** DER SubjectPublicKeyInfo, uncompressed point. */
  readonly publicKey: Uint8Array;
}

const CURVES = { 'P-256': p256, secp256k1 } as const;

const SPKI_PREFIX: Record<KeyCurve, string> = {
  'P-256': '3059301306072A8648CE3D020106082A8648CE3D030107034200',
  secp256k1: '3056301006072A8648CE3D020106052B8104000A034200',
};
const SPKI_COMPRESSED_PREFIX: Record<KeyCurve, string> = {
  'P-256': '3039301306072A8648CE3D020106082A8648CE3D030107032200',
  secp256k1: '3036301006072A8648CE3D020106052B8104000A032200',
};
const PKCS8_PREFIX: Record<KeyCurve, string> = {
  'P-256': '308187020100301306072A8648CE3D020106082A8648CE3D030107046D306B0201010420',
  secp256k1: '308184020100301006072A8648CE3D020106052B8104000A046D306B0201010420',
};
const PKCS8_PUBLIC_MARK = 'A144034200';

function keyError(message: string): TsibaseError {
  return new TsibaseError('INVALID_KEY', message);
}

function startsWith(bytes: Uint8Array, prefixHex: string): boolean {
  return bytesToHex(bytes.subarray(0, prefixHex.length / 2)) === prefixHex;
}

export function generateKeyPair(curve: KeyCurve = 'P-256'): KeyPair {
  return keyPairFromPrivate(curve, CURVES[curve].utils.randomSecretKey());
}

export function keyPairFromPrivate(curve: KeyCurve, privateKey: Uint8Array): KeyPair {
  if (!CURVES[curve].utils.isValidSecretKey(privateKey)) throw keyError(`not a valid ${curve} private key`);
  const point = CURVES[curve].getPublicKey(privateKey, false);
  return { curve, privateKey, publicKey: concatBytes(hexToBytes(SPKI_PREFIX[curve]), point) };
}

/** The curve and uncompressed point of a DER SubjectPublicKeyInfo (compressed points accepted). */
export function parsePublicKey(der: Uint8Array): { curve: KeyCurve; point: Uint8Array } {
  for (const curve of Object.keys(CURVES) as KeyCurve[]) {
    const full = SPKI_PREFIX[curve];
    const compressed = SPKI_COMPRESSED_PREFIX[curve];
    let point: Uint8Array | undefined;
    if (startsWith(der, full) && der.length === full.length / 2 + 65) point = der.subarray(full.length / 2);
    else if (startsWith(der, compressed) && der.length === compressed.length / 2 + 33) point = der.subarray(compressed.length / 2);
    if (!point) continue;
    if (!CURVES[curve].utils.isValidPublicKey(point, point.length === 33)) throw keyError(`the ${curve} public key is not a point on the curve`);
    return { curve, point: CURVES[curve].Point.fromBytes(point).toBytes(false) };
  }
  throw keyError('not a DER SubjectPublicKeyInfo of a P-256 or secp256k1 key');
}

export function privateKeyToPkcs8(pair: KeyPair): Uint8Array {
  return concatBytes(hexToBytes(PKCS8_PREFIX[pair.curve]), pair.privateKey, hexToBytes(PKCS8_PUBLIC_MARK), pair.publicKey.subarray(-65));
}

export function keyPairFromPkcs8(der: Uint8Array): KeyPair {
  for (const curve of Object.keys(CURVES) as KeyCurve[]) {
    const prefix = PKCS8_PREFIX[curve];
    if (startsWith(der, prefix) && der.length >= prefix.length / 2 + 32) {
      return keyPairFromPrivate(curve, der.slice(prefix.length / 2, prefix.length / 2 + 32));
    }
  }
  throw keyError('not a PKCS#8 P-256 or secp256k1 private key');
}

/** Signs a 32-byte digest; returns r||s with low S. */
export function signDigest(pair: KeyPair, digest: Uint8Array): Uint8Array {
  if (digest.length !== 32) throw keyError(`a digest has 32 bytes, got ${digest.length}`);
  return CURVES[pair.curve].sign(digest, pair.privateKey, { prehash: false, lowS: true });
}

/** Checks r||s over a 32-byte digest (high S accepted, as the node does). */
export function verifyDigest(publicKey: Uint8Array, digest: Uint8Array, signature: Uint8Array): boolean {
  const { curve, point } = parsePublicKey(publicKey);
  try {
    return CURVES[curve].verify(signature, digest, point, { prehash: false, lowS: false });
  } catch {
    return false;
  }
}

/** Signs `data` (a packed transaction, for example): r||s over SHA-256(data). */
export function signData(pair: KeyPair, data: Uint8Array): Uint8Array {
  return signDigest(pair, sha256(data));
}

export function toPem(label: 'PUBLIC KEY' | 'PRIVATE KEY', der: Uint8Array): string {
  const base64 = btoa(String.fromCharCode(...der));
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export function fromPem(text: string): { label: string; der: Uint8Array } {
  const m = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) throw keyError('not a PEM block');
  const binary = atob(m[2]!.replace(/\s+/g, ''));
  return { label: m[1]!, der: Uint8Array.from(binary, (c) => c.charCodeAt(0)) };
}
