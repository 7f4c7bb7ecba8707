// verify-sig in verify mode, as the node runs it for every claim: real P-256 and secp256k1
// signatures over a transaction id pass, anything else aborts "signature invalid".
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signDigest, type KeyCurve, type KeyPair } from '../../../../host-api/index.js';
import { withVerdicts, type ExpectedSignature } from '../../../../runtime/crypto/signature-verdicts.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let verifySig: SystemService;

test.before(async () => {
  ({ 'verify-sig': verifySig } = await loadServices('verify-sig'));
  chain = TestChain.open();
  verifySig.deploy(chain);
});

test.after(async () => {
  await chain.close();
});

const transaction = new TextEncoder().encode('a packed transaction');
const transactionHash = new Uint8Array(createHash('sha256').update(transaction).digest());

/** The DER SubjectPublicKeyInfo of the pair with a compressed point. */
function compressedKey(pair: KeyPair): Uint8Array {
  const prefix = pair.curve === 'P-256' ? '3039301306072a8648ce3d020106082a8648ce3d030107032200' : '3036301006072a8648ce3d020106052b8104000a032200';
  const point = pair.publicKey.subarray(-65);
  return Uint8Array.from([...Buffer.from(prefix, 'hex'), 2 + (point[64]! & 1), ...point.subarray(1, 33)]);
}

/** verifySys as the node runs it: sender 0, verify mode; `expected` is the verdict the node computed ahead. */
function verify(key: Uint8Array, hash: Uint8Array, proof: Uint8Array, expected?: ExpectedSignature) {
  return verifySig.run(chain, 0n, 'verifySys', { transactionHash: hash, claim: { service: 'verify-sig', rawData: key }, proof }, { mode: 'verify', expectedSignature: expected });
}

/** The verdict the node would give verify-sig for this check, computed on the signature worker. */
async function verdict(key: Uint8Array, hash: Uint8Array, proof: Uint8Array): Promise<ExpectedSignature> {
  return (await withVerdicts([{ key, digest: hash, signedData: transaction, signature: proof }]))[0]!;
}

for (const curve of ['P-256', 'secp256k1'] as KeyCurve[]) {
  test(`${curve}: a signature over the transaction id verifies, with the key compressed or not`, async () => {
    const pair = generateKeyPair(curve);
    const proof = signDigest(pair, transactionHash);
    for (const key of [pair.publicKey, compressedKey(pair)]) {
      assert.is(verify(key, transactionHash, proof).error, undefined);
      assert.is(verify(key, transactionHash, proof, await verdict(key, transactionHash, proof)).error, undefined);
    }
  });

  test(`${curve}: forged signatures, other ids and other keys abort "signature invalid"`, () => {
    const pair = generateKeyPair(curve);
    const proof = signDigest(pair, transactionHash);
    const forged = proof.slice();
    forged[10]! ^= 1;
    const otherHash = transactionHash.slice();
    otherHash[0]! ^= 0x80;
    const cases: [string, Uint8Array, Uint8Array, Uint8Array][] = [
      ['forged signature', pair.publicKey, transactionHash, forged],
      ['signature of another id', pair.publicKey, otherHash, proof],
      ['another key', generateKeyPair(curve).publicKey, transactionHash, proof],
      ['truncated proof', pair.publicKey, transactionHash, proof.subarray(0, 63)],
      ['empty proof', pair.publicKey, transactionHash, new Uint8Array(0)],
      ['not a key', new Uint8Array([0x30, 0x00]), transactionHash, proof],
    ];
    for (const [name, key, hash, signature] of cases) {
      const result = verify(key, hash, signature);
      assert.is(result.error, `service 'verify-sig' aborted with message: signature invalid`, name);
    }
  });
}

test('verifySys needs verify mode: the ECDSA import is refused elsewhere', () => {
  const pair = generateKeyPair();
  const args = { transactionHash, claim: { service: 'verify-sig', rawData: pair.publicKey }, proof: signDigest(pair, transactionHash) };
  assert.match(verifySig.run(chain, 0n, 'verifySys', args).error ?? '', 'only available in verify mode');
});

test.run();
