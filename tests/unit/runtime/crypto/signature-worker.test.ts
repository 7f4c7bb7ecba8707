// The signature worker: checks asked for in one turn go as one batch, and each gets its own
// verdict (in any order of good and forged), the same verifySignedData gives in place; the batch
// format round-trips and refuses a check that runs past its end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signData } from '../../../../host-api/crypto/keys.js';
import { verifySignedData } from '../../../../runtime/crypto/ecdsa.js';
import { packChecks, unpackChecks, type SignatureCheck } from '../../../../runtime/crypto/signature-batch.js';
import { signatureWorker } from '../../../../runtime/crypto/signature-worker.js';

function checks(count: number): { checks: SignatureCheck[]; expected: boolean[] } {
  const pairs = [generateKeyPair('P-256'), generateKeyPair('secp256k1')];
  const expected = Array.from({ length: count }, (_, i) => i % 3 !== 1);
  return {
    expected,
    checks: expected.map((good, i) => {
      const pair = pairs[i % 2]!;
      const signedData = new TextEncoder().encode(`transaction ${i}`);
      const signature = signData(pair, signedData);
      if (!good) signature[5]! ^= 1;
      return { key: pair.publicKey, signedData, signature };
    }),
  };
}

test('checks of one turn, good and forged mixed, each get their own verdict', async () => {
  const { checks: batch, expected } = checks(24);
  const verdicts = await Promise.all(batch.map((c) => signatureWorker.verify(c)));
  assert.equal(verdicts, expected);
  assert.equal(batch.map((c) => verifySignedData(c.key, c.signedData, c.signature)), expected);
});

test('checks of later turns are answered too', async () => {
  const { checks: batch, expected } = checks(4);
  for (let i = 0; i < batch.length; i++) assert.is(await signatureWorker.verify(batch[i]!), expected[i]);
});

test('a key that is not one, or a signature of the wrong length, is not valid', async () => {
  const [good] = checks(1).checks;
  assert.is(await signatureWorker.verify({ ...good!, key: Uint8Array.of(1, 2, 3) }), false);
  assert.is(await signatureWorker.verify({ ...good!, signature: good!.signature.subarray(0, 63) }), false);
});

test('the batch format round-trips views into larger buffers, and refuses a truncated batch', () => {
  const { checks: batch } = checks(3);
  const backing = new Uint8Array(100);
  const inView = { ...batch[0]!, signedData: backing.subarray(10, 20) };
  const packed = packChecks([inView, ...batch.slice(1)]);
  assert.equal(unpackChecks(packed).map((c) => [...c.key, ...c.signedData, ...c.signature]),
    [inView, ...batch.slice(1)].map((c) => [...c.key, ...c.signedData, ...c.signature]));
  assert.throws(() => unpackChecks(packed.subarray(0, packed.length - 1)), /runs past the end/);
});

test.run();
