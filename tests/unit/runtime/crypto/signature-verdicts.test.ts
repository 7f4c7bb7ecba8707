// Verdicts computed ahead on the signature worker agree with verifying in place, and answer only
// for exactly the key, digest and signature they were computed for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signData } from '../../../../host-api/crypto/keys.js';
import { verifyDigest } from '../../../../runtime/crypto/ecdsa.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { verdictFor, withVerdicts } from '../../../../runtime/crypto/signature-verdicts.js';

const data = new TextEncoder().encode('a packed transaction');
const digest = sha256(data);

for (const curve of ['P-256', 'secp256k1'] as const) {
  test(`${curve}: a good and a forged signature get the verdicts verifyDigest gives`, async () => {
    const pair = generateKeyPair(curve);
    const good = signData(pair, data);
    const forged = good.slice();
    forged[10]! ^= 1;
    const [goodCheck, forgedCheck] = await withVerdicts([
      { key: pair.publicKey, digest, signedData: data, signature: good },
      { key: pair.publicKey, digest, signedData: data, signature: forged },
    ]);
    assert.is(verdictFor(goodCheck, pair.publicKey, digest, good), true);
    assert.is(verdictFor(forgedCheck, pair.publicKey, digest, forged), false);
    assert.is(verifyDigest(pair.publicKey, digest, good), true);
    assert.is(verifyDigest(pair.publicKey, digest, forged), false);
  });
}

test('a check with another key, digest or signature gets no verdict', async () => {
  const pair = generateKeyPair();
  const other = generateKeyPair();
  const signature = signData(pair, data);
  const [expected] = await withVerdicts([{ key: pair.publicKey, digest, signedData: data, signature }]);
  assert.is(verdictFor(expected, other.publicKey, digest, signature), undefined);
  assert.is(verdictFor(expected, pair.publicKey, sha256(Uint8Array.of(1)), signature), undefined);
  assert.is(verdictFor(expected, pair.publicKey, digest, signData(pair, Uint8Array.of(1))), undefined);
  assert.is(verdictFor(undefined, pair.publicKey, digest, signature), undefined);
});

test('a claim that is not a key gets a false verdict, not an exception', async () => {
  const pair = generateKeyPair();
  const signature = signData(pair, data);
  const notAKey = Uint8Array.of(1, 2, 3);
  const [expected] = await withVerdicts([{ key: notAKey, digest, signedData: data, signature }]);
  assert.is(verdictFor(expected, notAKey, digest, signature), false);
});

test.run();
