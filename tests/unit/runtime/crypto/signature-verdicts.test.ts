// Verdicts computed ahead on libuv's threadpool agree with verifying in place, and are found
// only for exactly the key, digest and signature they were computed for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signData } from '../../../../host-api/crypto/keys.js';
import { verifyDigest } from '../../../../runtime/crypto/ecdsa.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { SignatureVerdicts } from '../../../../runtime/crypto/signature-verdicts.js';

const data = new TextEncoder().encode('a packed transaction');
const digest = sha256(data);

for (const curve of ['P-256', 'secp256k1'] as const) {
  test(`${curve}: a good and a forged signature get the verdicts verifyDigest gives`, async () => {
    const pair = generateKeyPair(curve);
    const good = signData(pair, data);
    const forged = good.slice();
    forged[10]! ^= 1;
    const verdicts = await SignatureVerdicts.compute([
      { key: pair.publicKey, digest, signedData: data, signature: good },
      { key: pair.publicKey, digest, signedData: data, signature: forged },
    ]);
    assert.is(verdicts.get(pair.publicKey, digest, good), true);
    assert.is(verdicts.get(pair.publicKey, digest, forged), false);
    assert.is(verifyDigest(pair.publicKey, digest, good), true);
    assert.is(verifyDigest(pair.publicKey, digest, forged), false);
  });
}

test('a check with another key, digest or signature is not found', async () => {
  const pair = generateKeyPair();
  const other = generateKeyPair();
  const signature = signData(pair, data);
  const verdicts = await SignatureVerdicts.compute([{ key: pair.publicKey, digest, signedData: data, signature }]);
  assert.is(verdicts.get(other.publicKey, digest, signature), undefined);
  assert.is(verdicts.get(pair.publicKey, sha256(Uint8Array.of(1)), signature), undefined);
  assert.is(verdicts.get(pair.publicKey, digest, signData(pair, Uint8Array.of(1))), undefined);
});

test('a claim that is not a key gets a false verdict, not an exception', async () => {
  const pair = generateKeyPair();
  const signature = signData(pair, data);
  const notAKey = Uint8Array.of(1, 2, 3);
  const verdicts = await SignatureVerdicts.compute([{ key: notAKey, digest, signedData: data, signature }]);
  assert.is(verdicts.get(notAKey, digest, signature), false);
});

test.run();
