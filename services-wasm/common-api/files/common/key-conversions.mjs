// key-conversions.mjs: psibase's key formats for the browser library (common-lib.js re-exports
// all of it under psibase's names). Text keys are `PVT_K1_`/`PVT_R1_`/`PUB_K1_`/`PUB_R1_` then
// base58 of the key bytes (a 32-byte scalar, or a 33-byte compressed point) followed by the first
// 4 bytes of RIPEMD-160(key bytes || "K1" or "R1"). Public keys on chain are DER
// SubjectPublicKeyInfo with the compressed point; signatures are r || s.
//
// `{keyType, keyPair}` is psibase's shape; the keyPair here is this library's own EcKeyPair
// (getPrivate()/getPublic() answer BigInts, sign() a digest), not an `elliptic` object. The curves
// and hashes are @noble's, served beside this file (docs/bundle.md, packageModules).

import { ripemd160 } from './@noble/hashes/legacy.js';
import { p256 } from './@noble/curves/nist.js';
import { secp256k1 } from './@noble/curves/secp256k1.js';
import { bytesToNumberBE, numberToBytesBE } from './@noble/curves/utils.js';

export const KeyType = {
  k1: 0,
  r1: 1,
};

const CURVE_OF_TYPE = [secp256k1, p256];
const SUFFIX_OF_TYPE = ['K1', 'R1'];

/** A key pair on one of psibase's curves; `priv` is null for a public key alone. */
export class EcKeyPair {
  constructor(curve, priv, pub) {
    this.curve = curve;
    this.priv = priv;
    this.pub = pub;
  }

  /** The pair of private scalar `priv`, which must lie in [1, n-1]. */
  static fromPrivate(curve, priv) {
    return new EcKeyPair(curve, priv, curve.Point.BASE.multiply(priv).toAffine());
  }

  /** The private scalar (a BigInt). */
  getPrivate() {
    if (this.priv === null) throw new Error('a public key has no private part');
    return this.priv;
  }

  /** The public point `{x, y}` (BigInts). */
  getPublic() {
    return this.pub;
  }

  /** The 33-byte compressed public point. */
  compressedPublic() {
    return this.curve.Point.fromAffine(this.pub).toBytes(true);
  }

  /** `{r, s}` (BigInts) over a 32-byte digest: RFC 6979 nonces, S not normalized (as psibase's common-lib signs). */
  sign(digest) {
    const signature = this.curve.sign(digest, numberToBytesBE(this.getPrivate(), 32), { prehash: false, lowS: false });
    const { r, s } = this.curve.Signature.fromBytes(signature);
    return { r, s };
  }
}

// ---- base58 (Bitcoin's alphabet) ----

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58ToBytes(text, size) {
  let value = 0n;
  for (const c of text) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) throw new Error('invalid base-58 value');
    value = value * 58n + BigInt(digit);
  }
  if (value >> BigInt(size * 8) !== 0n) throw new Error('base-58 value is out of range');
  return numberToBytesBE(value, size);
}

function bytesToBase58(bytes) {
  let value = bytesToNumberBE(bytes);
  let out = '';
  for (; value > 0n; value /= 58n) out = BASE58[Number(value % 58n)] + out;
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

// ---- text keys ----

function checksum(data, suffix) {
  const tagged = new Uint8Array(data.length + suffix.length);
  tagged.set(data);
  for (let i = 0; i < suffix.length; i++) tagged[data.length + i] = suffix.charCodeAt(i);
  return ripemd160(tagged).subarray(0, 4);
}

function stringToKey(text, size, suffix) {
  const whole = base58ToBytes(text, size + 4);
  const data = whole.slice(0, size);
  const sum = checksum(data, suffix);
  for (let i = 0; i < 4; i++) if (sum[i] !== whole[size + i]) throw new Error("checksum doesn't match");
  return data;
}

function keyToString(data, suffix, prefix) {
  const whole = new Uint8Array(data.length + 4);
  whole.set(data);
  whole.set(checksum(data, suffix), data.length);
  return prefix + bytesToBase58(whole);
}

/** `PVT_K1_…` or `PVT_R1_…` to `{keyType, keyPair}`. */
export function privateStringToKeyPair(text) {
  const keyType = text.startsWith('PVT_K1_') ? KeyType.k1 : text.startsWith('PVT_R1_') ? KeyType.r1 : undefined;
  if (keyType === undefined) throw new Error('private key must begin with PVT_K1_ or PVT_R1_');
  const data = stringToKey(text.substring(7), 32, SUFFIX_OF_TYPE[keyType]);
  return { keyType, keyPair: EcKeyPair.fromPrivate(CURVE_OF_TYPE[keyType], bytesToNumberBE(data)) };
}

/** `PUB_K1_…` or `PUB_R1_…` to `{keyType, keyPair}` (a public key alone). */
export function publicStringToKeyPair(text) {
  const keyType = text.startsWith('PUB_K1_') ? KeyType.k1 : text.startsWith('PUB_R1_') ? KeyType.r1 : undefined;
  if (keyType === undefined) throw new Error('public key must begin with PUB_K1_ or PUB_R1_');
  const curve = CURVE_OF_TYPE[keyType];
  const data = stringToKey(text.substring(7), 33, SUFFIX_OF_TYPE[keyType]);
  return { keyType, keyPair: new EcKeyPair(curve, null, curve.Point.fromBytes(data).toAffine()) };
}

function suffixOf(keyType) {
  const suffix = SUFFIX_OF_TYPE[keyType];
  if (suffix === undefined) throw new Error('unsupported key type');
  return suffix;
}

export function privateKeyPairToString({ keyType, keyPair }) {
  const suffix = suffixOf(keyType);
  return keyToString(numberToBytesBE(keyPair.getPrivate(), 32), suffix, `PVT_${suffix}_`);
}

export function publicKeyPairToString({ keyType, keyPair }) {
  const suffix = suffixOf(keyType);
  return keyToString(keyPair.compressedPublic(), suffix, `PUB_${suffix}_`);
}

export function keyPairStrings(key) {
  return { pub: publicKeyPairToString(key), priv: privateKeyPairToString(key) };
}

/** A new random key pair of `keyType` (default K1) as `{pub, priv}` strings. */
export function genKeyPair(keyType = KeyType.k1) {
  const curve = CURVE_OF_TYPE[keyType];
  if (!curve) throw new Error('unsupported key type');
  const priv = bytesToNumberBE(curve.utils.randomSecretKey());
  return keyPairStrings({ keyType, keyPair: EcKeyPair.fromPrivate(curve, priv) });
}

// ---- binary forms ----

// DER SubjectPublicKeyInfo up to the 33-byte compressed point: id-ecPublicKey and the curve's OID.
const SPKI_PREFIX = [
  '3036301006072a8648ce3d020106052b8104000a032200',
  '3039301306072a8648ce3d020106082a8648ce3d030107032200',
];

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));
}

/** The DER SubjectPublicKeyInfo (compressed point) of `{keyType, keyPair}`. */
export function publicKeyPairToDER({ keyType, keyPair }) {
  const prefix = SPKI_PREFIX[keyType];
  if (prefix === undefined) throw new Error('unsupported key type');
  const prefixBytes = hexBytes(prefix);
  const out = new Uint8Array(prefixBytes.length + 33);
  out.set(prefixBytes);
  out.set(keyPair.compressedPublic(), prefixBytes.length);
  return out;
}

/** The DER bytes of a PEM block; `tag`, when given, must be its label. */
export function PEMtoDER(text, tag) {
  const match = /-----BEGIN (.*?)-----([^]*?)-----END \1-----/.exec(text);
  if (!match) throw new Error('Public key expected');
  if (tag && tag !== match[1]) throw new Error(`Expected ${tag} but got ${match[1]}`);
  return Uint8Array.from(atob(match[2].replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

/** A `PUB_…` string or a PEM public key to DER SubjectPublicKeyInfo. */
export function publicStringToDER(text) {
  return text.startsWith('PUB_') ? publicKeyPairToDER(publicStringToKeyPair(text)) : PEMtoDER(text, 'PUBLIC KEY');
}

/** psibase's fracpack PublicKey variant: offset 4, the key type, size 33, the compressed point. */
export function publicKeyPairToFracpack({ keyType, keyPair }) {
  return Uint8Array.from([4, 0, 0, 0, keyType, 33, 0, 0, 0, ...keyPair.compressedPublic()]);
}

/** psibase's fracpack Signature variant: offset 4, the key type, size 64, r || s. */
export function signatureToFracpack({ keyType, signature }) {
  return Uint8Array.from([4, 0, 0, 0, keyType, 64, 0, 0, 0, ...signatureToBin({ signature })]);
}

/** r || s, 64 bytes: the proof verify-sig checks. */
export function signatureToBin({ signature }) {
  const out = new Uint8Array(64);
  out.set(numberToBytesBE(BigInt(signature.r), 32));
  out.set(numberToBytesBE(BigInt(signature.s), 32), 32);
  return out;
}
