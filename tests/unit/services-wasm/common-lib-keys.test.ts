// The key conversions of /common/common-lib.js (key-conversions.mjs, as served with @noble's
// modules beside it) against psibase's own example keys (psibase's js-libraries docs), against
// @noble/curves as node loads it, and RFC 6979's P-256 vector.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../lib/hex.js';
import { servedCommonFiles } from '../../lib/common-files.js';

interface Point { x: bigint; y: bigint }
interface KeyPair { getPrivate(): bigint; getPublic(): Point; sign(digest: Uint8Array): { r: bigint; s: bigint } }
interface Key { keyType: number; keyPair: KeyPair }
interface Keys {
  KeyType: { k1: number; r1: number };
  privateStringToKeyPair(text: string): Key;
  publicStringToKeyPair(text: string): Key;
  privateKeyPairToString(key: Key): string;
  publicKeyPairToString(key: Key): string;
  publicKeyPairToDER(key: Key): Uint8Array;
  publicStringToDER(text: string): Uint8Array;
  publicKeyPairToFracpack(key: Key): Uint8Array;
  signatureToBin(s: { signature: { r: bigint; s: bigint } }): Uint8Array;
  signatureToFracpack(s: { keyType: number; signature: { r: bigint; s: bigint } }): Uint8Array;
  genKeyPair(keyType?: number): { pub: string; priv: string };
}
const keys = async () => (await import(pathToFileURL(join(await servedCommonFiles(), 'key-conversions.mjs')).href)) as Keys;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

// psibase's documented example pairs, and the DER SubjectPublicKeyInfo prefixes of its common-lib.
const PSIBASE_PAIRS = [
  { curve: secp256k1, priv: 'PVT_K1_2bfGi9rYsXQSXXTvJbDAPhHLQUojjaNLomdm3cEJ1XTzMqUt3V', pub: 'PUB_K1_6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5BoDq63', spki: '3036301006072A8648CE3D020106052B8104000A032200' },
  { curve: p256, priv: 'PVT_R1_fJ6ASApAc9utAL4zfNE4qwo22p7JpgHHSCVJ9pQfw4vZPXCq3', pub: 'PUB_R1_7pGpnu7HZVwi8kiLLDK2MJ6aYYS23eRJYmDXSLq5WZFCN6WEqY', spki: '3039301306072A8648CE3D020106082A8648CE3D030107032200' },
];

const scalarBytes = (x: bigint) => Uint8Array.from(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));

test("psibase's example keys: private to public string, both round trips, DER and fracpack forms", async () => {
  const k = await keys();
  for (const pair of PSIBASE_PAIRS) {
    const key = k.privateStringToKeyPair(pair.priv);
    assert.is(k.publicKeyPairToString(key), pair.pub);
    assert.is(k.privateKeyPairToString(key), pair.priv);
    const point = pair.curve.getPublicKey(scalarBytes(key.keyPair.getPrivate()), true);
    assert.is(bytesToHex(k.publicKeyPairToDER(key)), pair.spki + bytesToHex(point));
    assert.is(bytesToHex(k.publicStringToDER(pair.pub)), pair.spki + bytesToHex(point));
    const pub = k.publicStringToKeyPair(pair.pub);
    assert.is(pub.keyType, key.keyType);
    assert.equal(pub.keyPair.getPublic(), key.keyPair.getPublic());
    assert.is(bytesToHex(k.publicKeyPairToFracpack(pub)), `04000000${key.keyType ? '01' : '00'}21000000${bytesToHex(point)}`);
  }
});

test('text keys: a wrong prefix, a bad character, a changed checksum and an out-of-range value are refused', async () => {
  const k = await keys();
  const { priv, pub } = PSIBASE_PAIRS[1]!;
  assert.throws(() => k.privateStringToKeyPair(priv.replace('PVT_R1_', 'PVT_X1_')), /must begin with PVT_K1_ or PVT_R1_/);
  assert.throws(() => k.publicStringToKeyPair(pub.replace('PUB_', 'PVT_')), /must begin with PUB_K1_ or PUB_R1_/);
  assert.throws(() => k.privateStringToKeyPair(priv.slice(0, -1) + '0'), /invalid base-58 value/);
  const last = priv.at(-1) === '2' ? '3' : '2';
  assert.throws(() => k.privateStringToKeyPair(priv.slice(0, -1) + last), /checksum doesn't match/);
  // A K1 key read as R1: the suffix is part of the checksum.
  assert.throws(() => k.privateStringToKeyPair(PSIBASE_PAIRS[0]!.priv.replace('K1', 'R1')), /checksum doesn't match/);
  assert.throws(() => k.privateStringToKeyPair('PVT_R1_' + 'z'.repeat(60)), /out of range/);
});

test('genKeyPair: fresh keys of either curve whose strings round-trip', async () => {
  const k = await keys();
  for (const [keyType, prefix] of [[k.KeyType.k1, 'K1'], [k.KeyType.r1, 'R1']] as const) {
    const a = k.genKeyPair(keyType);
    const b = k.genKeyPair(keyType);
    assert.ok(a.priv.startsWith(`PVT_${prefix}_`) && a.pub.startsWith(`PUB_${prefix}_`), a.priv);
    assert.is.not(a.priv, b.priv);
    assert.is(k.publicKeyPairToString(k.privateStringToKeyPair(a.priv)), a.pub);
  }
});

test("signatures: RFC 6979's P-256 vector, and noble's deterministic signatures (not normalized to low S) on both curves", async () => {
  const k = await keys();
  // RFC 6979 A.2.5: P-256, SHA-256, message "sample"; the key goes in through its PVT_R1_ string.
  const rfcKey = k.privateStringToKeyPair(k.privateKeyPairToString({
    keyType: k.KeyType.r1, keyPair: { getPrivate: () => 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721n } as KeyPair,
  }));
  const sample = rfcKey.keyPair.sign(sha256(new TextEncoder().encode('sample')));
  assert.is(bytesToHex(k.signatureToBin({ signature: sample })),
    'EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8');
  let highS = 0;
  for (const pair of PSIBASE_PAIRS) {
    const key = k.privateStringToKeyPair(pair.priv);
    for (let i = 0; i < 16; i++) {
      const digest = sha256(randomBytes(24));
      const signature = key.keyPair.sign(digest);
      const expected = pair.curve.sign(digest, scalarBytes(key.keyPair.getPrivate()), { prehash: false, lowS: false });
      assert.is(bytesToHex(k.signatureToBin({ signature })), bytesToHex(expected));
      assert.is(bytesToHex(k.signatureToFracpack({ keyType: key.keyType, signature })), `04000000${key.keyType ? '01' : '00'}40000000${bytesToHex(expected)}`);
      if (signature.s > pair.curve.Point.CURVE().n / 2n) highS++;
    }
  }
  assert.ok(highS > 0, 'some signatures keep a high S');
});

test.run();
