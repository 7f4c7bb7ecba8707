// Client keys against node:crypto as the reference: DER SubjectPublicKeyInfo and PKCS#8 forms,
// r||s signatures over SHA-256, both curves.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Transaction, SignedTransaction, fromPem, generateKeyPair, keyPairFromPkcs8, parsePublicKey, privateKeyToPkcs8,
  signData, signTransaction, toPem, transactionId, verifyDigest, type KeyCurve,
} from '../../../../host-api/index.js';
import { bytesToHex } from '../../../lib/hex.js';

const NODE_CURVE: Record<KeyCurve, string> = { 'P-256': 'prime256v1', secp256k1: 'secp256k1' };
const message = new TextEncoder().encode('a packed transaction');

for (const curve of ['P-256', 'secp256k1'] as const) {
  test(`${curve}: our DER forms are what node:crypto reads and writes`, () => {
    const pair = generateKeyPair(curve);
    const nodePublic = createPublicKey({ key: Buffer.from(pair.publicKey), format: 'der', type: 'spki' });
    assert.is(nodePublic.asymmetricKeyDetails?.namedCurve, NODE_CURVE[curve]);
    const nodePrivate = createPrivateKey({ key: Buffer.from(privateKeyToPkcs8(pair)), format: 'der', type: 'pkcs8' });
    assert.is(bytesToHex(new Uint8Array(createPublicKey(nodePrivate).export({ format: 'der', type: 'spki' }))), bytesToHex(pair.publicKey));
    const generated = generateKeyPairSync('ec', { namedCurve: NODE_CURVE[curve] });
    const der = new Uint8Array(generated.privateKey.export({ format: 'der', type: 'pkcs8' }));
    const imported = keyPairFromPkcs8(der);
    assert.is(bytesToHex(imported.publicKey), bytesToHex(new Uint8Array(generated.publicKey.export({ format: 'der', type: 'spki' }))));
  });

  test(`${curve}: signatures verify both ways against node:crypto`, () => {
    const pair = generateKeyPair(curve);
    const ours = signData(pair, message);
    assert.is(ours.length, 64);
    const key = createPublicKey({ key: Buffer.from(pair.publicKey), format: 'der', type: 'spki' });
    assert.ok(verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, ours));
    const generated = generateKeyPairSync('ec', { namedCurve: NODE_CURVE[curve] });
    const theirs = new Uint8Array(sign('sha256', message, { key: generated.privateKey, dsaEncoding: 'ieee-p1363' }));
    const spki = new Uint8Array(generated.publicKey.export({ format: 'der', type: 'spki' }));
    const digest = new Uint8Array(createHash('sha256').update(message).digest());
    assert.ok(verifyDigest(spki, digest, theirs));
    theirs[5] ^= 1;
    assert.not.ok(verifyDigest(spki, digest, theirs));
  });

  test(`${curve}: compressed public keys parse to the same point`, () => {
    const generated = generateKeyPairSync('ec', { namedCurve: NODE_CURVE[curve] });
    const jwk = generated.publicKey.export({ format: 'jwk' });
    const uncompressed = new Uint8Array(generated.publicKey.export({ format: 'der', type: 'spki' }));
    const point = parsePublicKey(uncompressed).point;
    const y = Buffer.from(jwk.y!, 'base64url');
    const compressedPoint = Uint8Array.from([y[31]! & 1 ? 3 : 2, ...Buffer.from(jwk.x!, 'base64url')]);
    const prefix = uncompressed.subarray(0, uncompressed.length - 65);
    const compressedDer = Uint8Array.from([...compressedSpkiPrefix(prefix), ...compressedPoint]);
    assert.is(bytesToHex(parsePublicKey(compressedDer).point), bytesToHex(point));
  });
}

/** Same algorithm identifiers; the outer and bit-string lengths shrink by 32 bytes. */
function compressedSpkiPrefix(uncompressedPrefix: Uint8Array): Uint8Array {
  const p = Uint8Array.from(uncompressedPrefix);
  p[1] = p[1]! - 32;
  p[p.length - 2] = 0x22;
  return p;
}

test('PEM round trip and clear errors for bad keys', () => {
  const pair = generateKeyPair();
  const pem = toPem('PRIVATE KEY', privateKeyToPkcs8(pair));
  assert.match(pem, /^-----BEGIN PRIVATE KEY-----\n/);
  assert.is(bytesToHex(keyPairFromPkcs8(fromPem(pem).der).publicKey), bytesToHex(pair.publicKey));
  assert.throws(() => parsePublicKey(Uint8Array.of(1, 2, 3)), (e: Error & { code?: string }) => e.code === 'INVALID_KEY');
  const offCurve = Uint8Array.from(pair.publicKey);
  offCurve[offCurve.length - 1] ^= 1;
  assert.throws(() => parsePublicKey(offCurve), /not a point on the curve/);
  assert.throws(() => fromPem('nothing'), /not a PEM block/);
});

test('signTransaction: one proof per key over the transaction id', () => {
  const pair = generateKeyPair();
  const tx = {
    tapos: { expiration: '2026-01-01T00:00:00Z', refBlockSuffix: 0, flags: 0, refBlockIndex: 0 },
    actions: [{ sender: 'alice', service: 'tokens', method: 'credit', rawData: '' }],
    claims: [{ service: 'verify-sig', rawData: bytesToHex(pair.publicKey) }],
  };
  const signed = SignedTransaction.unpack(signTransaction(tx, [pair]));
  assert.is(signed.proofs.length, 1);
  assert.ok(verifyDigest(pair.publicKey, transactionId(Transaction.pack(tx)), signed.proofs[0]!));
});

test.run();
