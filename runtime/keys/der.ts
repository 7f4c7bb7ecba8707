import { concatBytes } from '../../host-api/encoding/bytes.js';

// The few DER forms PKCS#11 EC keys travel in: a public key's point is an OCTET STRING, and the
// SubjectPublicKeyInfo built around it is SEQUENCEs and a BIT STRING. Every element of a P-256
// or secp256k1 public key is shorter than 128 bytes, so lengths take DER's one-byte form only.

export const DER_BIT_STRING = 0x03;
export const DER_OCTET_STRING = 0x04;
export const DER_SEQUENCE = 0x30;

const SHORT_LENGTH_LIMIT = 0x80;

/** One DER element: tag, length, content. */
export function derElement(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = concatBytes(...content);
  if (body.length >= SHORT_LENGTH_LIMIT) throw new RangeError(`a DER element of ${body.length} bytes needs a long-form length`);
  return concatBytes(Uint8Array.of(tag, body.length), body);
}

/** The content of `der` when it is exactly one short element with `tag`; undefined otherwise. */
export function derContent(tag: number, der: Uint8Array): Uint8Array | undefined {
  const length = der[1];
  if (der[0] !== tag || length === undefined || length >= SHORT_LENGTH_LIMIT || der.length !== 2 + length) return undefined;
  return der.subarray(2);
}
