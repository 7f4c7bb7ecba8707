import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { parsePublicKey, type KeyCurve } from '../../host-api/crypto/keys.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import { DER_BIT_STRING, DER_OCTET_STRING, DER_SEQUENCE, derContent, derElement } from './der.js';

// EC keys as PKCS#11 holds them: CKA_EC_PARAMS is the DER OID of a named curve, CKA_EC_POINT a
// DER OCTET STRING around the uncompressed point, and CKM_ECDSA signs a digest as raw r||s.

const EC_PARAMS: Record<KeyCurve, string> = {
  'P-256': '06082A8648CE3D030107',
  secp256k1: '06052B8104000A',
};
const EC_PUBLIC_KEY_ALGORITHM = '06072A8648CE3D0201';
const UNCOMPRESSED_POINT_BYTES = 65;

export function ecParams(curve: KeyCurve): Uint8Array {
  return hexToBytes(EC_PARAMS[curve]);
}

export function curveOfEcParams(params: Uint8Array): KeyCurve | undefined {
  const hex = bytesToHex(params);
  return (Object.keys(EC_PARAMS) as KeyCurve[]).find((curve) => EC_PARAMS[curve] === hex);
}

/**
 * The DER SubjectPublicKeyInfo of a token's public key, from its CKA_EC_PARAMS and CKA_EC_POINT;
 * undefined unless it is an uncompressed P-256 or secp256k1 point on the curve.
 */
export function publicKeyFromToken(params: Uint8Array, ecPoint: Uint8Array): Uint8Array | undefined {
  const point = derContent(DER_OCTET_STRING, ecPoint);
  if (!curveOfEcParams(params) || point?.length !== UNCOMPRESSED_POINT_BYTES) return undefined;
  const algorithm = derElement(DER_SEQUENCE, hexToBytes(EC_PUBLIC_KEY_ALGORITHM), params);
  const publicKey = derElement(DER_SEQUENCE, algorithm, derElement(DER_BIT_STRING, Uint8Array.of(0), point));
  try {
    parsePublicKey(publicKey);
  } catch {
    return undefined; // not on the curve
  }
  return publicKey;
}

/** A device's r||s with S made low, the form software keys sign in, so both sign alike. */
export function lowS(curve: KeyCurve, signature: Uint8Array): Uint8Array {
  const ecdsa = curve === 'P-256' ? p256 : secp256k1;
  const parsed = ecdsa.Signature.fromBytes(signature, 'compact');
  if (!parsed.hasHighS()) return signature;
  return new ecdsa.Signature(parsed.r, ecdsa.Point.Fn.ORDER - parsed.s).toBytes('compact');
}
