// ecdsa.mjs: the two curves psibase keys use (secp256k1, "K1", and P-256, "R1") in BigInt
// arithmetic: public keys of private keys, compressed points, and ECDSA signatures over a SHA-256
// digest with RFC 6979 nonces, not normalized to low S (as psibase's own common-lib signs).
// Not constant-time: for keys a person types into a page, like the library it stands in for.

import { hmacSha256 } from './hashes.mjs';

function curve(p, a, b, n, gx, gy) {
  return { p, a, b, n, g: { x: gx, y: gy } };
}

export const CURVES = {
  k1: curve(
    0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn, 0n, 7n,
    0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
    0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
    0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
  ),
  r1: curve(
    0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
    0xffffffff00000001000000000000000000000000fffffffffffffffffffffffcn,
    0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
    0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
  ),
};

const mod = (x, m) => ((x % m) + m) % m;

function inverse(x, m) {
  let [a, b, u, v] = [mod(x, m), m, 1n, 0n];
  while (a !== 0n) {
    const q = b / a;
    [a, b] = [b - q * a, a];
    [u, v] = [v - q * u, u];
  }
  if (b !== 1n) throw new Error('not invertible');
  return mod(v, m);
}

function modPow(base, exponent, m) {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

/** Affine point addition; null is the point at infinity. */
function add(c, P, Q) {
  if (P === null) return Q;
  if (Q === null) return P;
  let slope;
  if (P.x === Q.x) {
    if (mod(P.y + Q.y, c.p) === 0n) return null;
    slope = mod((3n * P.x * P.x + c.a) * inverse(2n * P.y, c.p), c.p);
  } else {
    slope = mod((Q.y - P.y) * inverse(Q.x - P.x, c.p), c.p);
  }
  const x = mod(slope * slope - P.x - Q.x, c.p);
  return { x, y: mod(slope * (P.x - x) - P.y, c.p) };
}

export function multiply(c, k, P = c.g) {
  let result = null;
  let addend = P;
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(c, result, addend);
    addend = add(c, addend, addend);
  }
  return result;
}

export function bytesToBigInt(bytes) {
  let x = 0n;
  for (const b of bytes) x = (x << 8n) | BigInt(b);
  return x;
}

export function bigIntToBytes(x, length = 32) {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

/** The public point of private scalar `d`, which must lie in [1, n-1]. */
export function publicPoint(c, d) {
  if (d <= 0n || d >= c.n) throw new Error('private key out of range');
  return multiply(c, d);
}

/** The 33-byte compressed form of a point: 02/03 by the parity of y, then x. */
export function compressPoint(P) {
  const out = new Uint8Array(33);
  out[0] = P.y & 1n ? 3 : 2;
  out.set(bigIntToBytes(P.x), 1);
  return out;
}

/** The point of a compressed (33-byte) or uncompressed (65-byte) encoding, checked to be on the curve. */
export function decodePoint(c, bytes) {
  const x = bytesToBigInt(bytes.subarray(1, 33));
  let y;
  if (bytes.length === 65 && bytes[0] === 4) {
    y = bytesToBigInt(bytes.subarray(33));
  } else if (bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)) {
    // Both curves have p ≡ 3 (mod 4): a square root is a power.
    y = modPow(x * x * x + c.a * x + c.b, (c.p + 1n) / 4n, c.p);
    if ((y & 1n) !== BigInt(bytes[0] & 1)) y = c.p - y;
  } else {
    throw new Error('expected a compressed or uncompressed point');
  }
  if (x >= c.p || mod(y * y - (x * x * x + c.a * x + c.b), c.p) !== 0n) throw new Error('the point is not on the curve');
  return { x, y };
}

/** RFC 6979 §3.2 nonces for private key `d` and digest `h` (already reduced mod n), as a generator. */
function* nonces(c, d, h) {
  const x = bigIntToBytes(d);
  const hashed = bigIntToBytes(h);
  let v = new Uint8Array(32).fill(1);
  let k = new Uint8Array(32);
  const join = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  k = hmacSha256(k, join(v, [0], x, hashed));
  v = hmacSha256(k, v);
  k = hmacSha256(k, join(v, [1], x, hashed));
  v = hmacSha256(k, v);
  for (;;) {
    v = hmacSha256(k, v);
    const candidate = bytesToBigInt(v);
    if (candidate >= 1n && candidate < c.n) yield candidate;
    k = hmacSha256(k, join(v, [0]));
    v = hmacSha256(k, v);
  }
}

/** The ECDSA signature `{r, s}` of a 32-byte digest under private scalar `d`. */
export function signDigest(c, d, digest) {
  const h = mod(bytesToBigInt(digest), c.n);
  for (const k of nonces(c, d, h)) {
    const r = mod(multiply(c, k).x, c.n);
    if (r === 0n) continue;
    const s = mod(inverse(k, c.n) * (h + r * d), c.n);
    if (s !== 0n) return { r, s };
  }
}
