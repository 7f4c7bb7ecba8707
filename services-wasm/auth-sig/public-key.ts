// The public keys auth-sig accepts: DER SubjectPublicKeyInfo of a P-256 or secp256k1 key, the
// point compressed or not (docs/chain.md §3), exactly as verify-sig checks them. DER is canonical, so
// each curve and point size has exactly one encoding: the algorithm identifier of the curve
// inside SEQUENCE { algorithm, BIT STRING (0 unused bits) point }. Whether the point lies on
// the curve is left to verify-sig: without EC arithmetic here, an off-curve key only means no
// signature ever matches it.

// SEQUENCE { OID ecPublicKey 1.2.840.10045.2.1, OID of the curve }
const P256_ALGORITHM: StaticArray<u8> = [0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const SECP256K1_ALGORITHM: StaticArray<u8> = [0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a];

const SEQUENCE: u8 = 0x30;
const BIT_STRING: u8 = 0x03;
const UNCOMPRESSED_POINT_SIZE = 65;
const COMPRESSED_POINT_SIZE = 33;

export function isSupportedPublicKey(key: Uint8Array): bool {
  return hasLayout(key, P256_ALGORITHM) || hasLayout(key, SECP256K1_ALGORITHM);
}

// 30 <length> <algorithm> 03 <point size + 1> 00 <point>
function hasLayout(key: Uint8Array, algorithm: StaticArray<u8>): bool {
  const pointSize = key.length - algorithm.length - 5;
  if (!isPointSize(pointSize) || key[0] != SEQUENCE || key[1] != key.length - 2) return false;
  for (let i = 0; i < algorithm.length; i++) if (key[2 + i] != algorithm[i]) return false;
  const bitString = 2 + algorithm.length;
  return key[bitString] == BIT_STRING && key[bitString + 1] == pointSize + 1 && key[bitString + 2] == 0
    && isPointPrefix(key[bitString + 3], pointSize);
}

function isPointSize(size: i32): bool {
  return size == UNCOMPRESSED_POINT_SIZE || size == COMPRESSED_POINT_SIZE;
}

/** SEC1: 04 before an uncompressed point, 02 or 03 (the parity of y) before a compressed one. */
function isPointPrefix(prefix: u8, size: i32): bool {
  return size == UNCOMPRESSED_POINT_SIZE ? prefix == 0x04 : prefix == 0x02 || prefix == 0x03;
}
