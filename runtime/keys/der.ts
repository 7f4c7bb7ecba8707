import { concatBytes } from '../../host-api/encoding/bytes.js';

// The few DER forms PKCS#11 EC keys travel in: a public key's point is an OCTET STRING, and the
// SubjectPublicKeyInfo built around it is SEQUENCEs and a BIT STRING. Definite lengths only.

export const DER_BIT_STRING = 0x03;
export const DER_OCTET_STRING = 0x04;
export const DER_SEQUENCE = 0x30;

function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** One DER element: tag, length, content. */
export function derElement(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = concatBytes(...content);
  return concatBytes(Uint8Array.of(tag), encodeLength(body.length), body);
}

/** The content of `der` when it is exactly one element with `tag`; undefined otherwise. */
export function derContent(tag: number, der: Uint8Array): Uint8Array | undefined {
  if (der.length < 2 || der[0] !== tag) return undefined;
  let length = der[1]!;
  let start = 2;
  if (length >= 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || der.length < 2 + count) return undefined;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[2 + i]!;
    start = 2 + count;
  }
  return der.length === start + length ? der.subarray(start) : undefined;
}
