import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signDigest, type KeyCurve } from '../../../../host-api/crypto/keys.js';
import { concatBytes } from '../../../../host-api/encoding/bytes.js';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { ecParams, lowS, publicKeyFromToken } from '../../../../runtime/keys/pkcs11-ec.js';

// Public keys and signatures as a PKCS#11 token gives them, turned into verify-sig's forms.

const CURVES: KeyCurve[] = ['P-256', 'secp256k1'];
const P384_PARAMS = hexToBytes('06052B81040022');

/** CKA_EC_POINT: a DER OCTET STRING around the point. */
function ecPoint(point: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(0x04, point.length), point);
}

test('a token point becomes the SubjectPublicKeyInfo a software key of that curve has', () => {
  for (const curve of CURVES) {
    const pair = generateKeyPair(curve);
    assert.equal(publicKeyFromToken(ecParams(curve), ecPoint(pair.publicKey.subarray(-65))), pair.publicKey, curve);
  }
});

test('points verify-sig cannot use are left out', () => {
  const point = generateKeyPair('P-256').publicKey.subarray(-65);
  const offCurve = Uint8Array.from(point);
  offCurve[64]! ^= 1;
  const compressed = p256.Point.fromBytes(point).toBytes(true);
  assert.is(publicKeyFromToken(P384_PARAMS, ecPoint(point)), undefined, 'another curve');
  assert.is(publicKeyFromToken(ecParams('secp256k1'), ecPoint(point)), undefined, 'a P-256 point as secp256k1');
  assert.is(publicKeyFromToken(ecParams('P-256'), ecPoint(offCurve)), undefined, 'off the curve');
  assert.is(publicKeyFromToken(ecParams('P-256'), ecPoint(compressed)), undefined, 'compressed');
  assert.is(publicKeyFromToken(ecParams('P-256'), point), undefined, 'no OCTET STRING');
  assert.is(publicKeyFromToken(ecParams('P-256'), concatBytes(ecPoint(point), Uint8Array.of(0))), undefined, 'trailing byte');
});

test('a high-S signature from a device becomes the low-S one software signs', () => {
  for (const curve of CURVES) {
    const pair = generateKeyPair(curve);
    const low = signDigest(pair, new Uint8Array(32).fill(7));
    const order = (curve === 'P-256' ? p256 : secp256k1).Point.Fn.ORDER;
    const s = BigInt(`0x${Buffer.from(low.subarray(32)).toString('hex')}`);
    const high = concatBytes(low.subarray(0, 32), hexToBytes((order - s).toString(16).padStart(64, '0')));
    assert.equal(lowS(curve, high), low, curve);
    assert.equal(lowS(curve, low), low, curve);
  }
});

test.run();
