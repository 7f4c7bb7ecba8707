import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { toBinaryString } from '../db/binary-string.js';

// ECDSA verification for verify services (docs/design.md decision 5): P-256 or secp256k1 keys as DER
// SubjectPublicKeyInfo, 64-byte r||s signatures over a SHA-256 digest. node:crypto can only
// verify a message it hashes itself, so when the host knows the signed bytes (the transaction
// being checked) it verifies those with node:crypto (~13k/s); for any other digest it falls
// back to @noble/curves on the digest. Both accept the same signatures (high S included), so
// the verdict never depends on the path.

type Curve = 'P-256' | 'secp256k1';

interface ParsedKey {
  readonly key: KeyObject;
  readonly curve: Curve;
  /** Uncompressed SEC1 point, for the digest path. */
  readonly point: Uint8Array;
}

const CACHE_LIMIT = 1024;
const parsedKeys = new Map<string, ParsedKey | null>();

function parseKey(der: Uint8Array): ParsedKey | null {
  const id = toBinaryString(der);
  let parsed = parsedKeys.get(id);
  if (parsed !== undefined) return parsed;
  parsed = null;
  try {
    const key = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
    const curveName = key.asymmetricKeyType === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
    const curve: Curve | undefined = curveName === 'prime256v1' ? 'P-256' : curveName === 'secp256k1' ? 'secp256k1' : undefined;
    if (curve) {
      const jwk = key.export({ format: 'jwk' });
      const point = new Uint8Array(65);
      point[0] = 4;
      point.set(Buffer.from(jwk.x!, 'base64url'), 1);
      point.set(Buffer.from(jwk.y!, 'base64url'), 33);
      parsed = { key, curve, point };
    }
  } catch {
    parsed = null;
  }
  if (parsedKeys.size >= CACHE_LIMIT) parsedKeys.clear();
  parsedKeys.set(id, parsed);
  return parsed;
}

/**
 * True when `signature` (r||s) signs `digest` with the key. `signedData`, when given, must be
 * the bytes whose SHA-256 is `digest`; it only selects the faster path.
 */
export function verifyDigest(keyDer: Uint8Array, digest: Uint8Array, signature: Uint8Array, signedData?: Uint8Array): boolean {
  if (digest.length !== 32) return false;
  if (signedData) return verifySignedData(keyDer, signedData, signature);
  if (signature.length !== 64) return false;
  const parsed = parseKey(keyDer);
  if (!parsed) return false;
  const curve = parsed.curve === 'P-256' ? p256 : secp256k1;
  try {
    return curve.verify(signature, digest, parsed.point, { prehash: false, lowS: false });
  } catch {
    return false;
  }
}

/**
 * Whether `signature` (r||s) signs the SHA-256 of `signedData` with the key, verified on the
 * calling thread. Same verdict as verifyDigest.
 */
export function verifySignedData(keyDer: Uint8Array, signedData: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const parsed = parseKey(keyDer);
  return parsed !== null && verify('sha256', signedData, { key: parsed.key, dsaEncoding: 'ieee-p1363' }, signature);
}
