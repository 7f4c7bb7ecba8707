// docs/p2p.md §2.0 on a booted chain: a signed P2P message verifies through its signer claim's
// verify service (verify-sig), and keeps its verdict when it comes again (the node remembers the
// verdicts it reached, runtime/chain/claim-verdicts.ts); a message whose body or signature
// differs, or the same signature under another claim, is judged on its own and fails, however
// often it comes; the empty claim always passes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, generateKeyPair, signDigest } from '../../../../host-api/index.js';
import type { Claim } from '../../../../host-api/types/index.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { verifiesMessage } from '../../../../runtime/network/message-signatures.js';
import { signedMessage, signingPreimage } from '../../../../runtime/network/messages/index.js';
import { bootedProducer, closeNode, type Node } from '../chain/chain-nodes.js';

interface Context { node: Node }
const test = suite<Context>('P2P message signatures');

test.before(async (ctx) => {
  ctx.node = await bootedProducer();
});

test.after(async (ctx) => {
  await closeNode(ctx.node);
});

const key = generateKeyPair();
const claim: Claim = { service: accountNumberFromName('verify-sig'), rawData: key.publicKey };
const prepareOf = (fill: number, signer: Claim) => ({ blockId: new Uint8Array(32).fill(fill), producer: accountNumberFromName('prod'), signer });
const signatureOf = (body: ReturnType<typeof prepareOf>) => signDigest(key, sha256(signingPreimage('PrepareMessage', body)));

test('a message signed for its claim verifies, and again when it comes again', ({ node }) => {
  const body = prepareOf(1, claim);
  const message = signedMessage('PrepareMessage', body, signatureOf(body));
  for (let i = 0; i < 3; i++) assert.ok(verifiesMessage(node.chain.claims, message), `time ${i + 1}`);
});

test('another body under the same signature, a changed signature and another claim fail every time', ({ node }) => {
  const body = prepareOf(2, claim);
  const signature = signatureOf(body);
  const other = generateKeyPair();
  const wrong = [
    signedMessage('PrepareMessage', prepareOf(3, claim), signature),
    signedMessage('PrepareMessage', body, signature.map((b, i) => (i === 5 ? b ^ 1 : b))),
    signedMessage('PrepareMessage', prepareOf(2, { ...claim, rawData: other.publicKey }), signature),
  ];
  assert.ok(verifiesMessage(node.chain.claims, signedMessage('PrepareMessage', body, signature)), 'the right one first');
  for (let i = 0; i < 2; i++) {
    for (const [n, message] of wrong.entries()) assert.not.ok(verifiesMessage(node.chain.claims, message), `wrong message ${n}, time ${i + 1}`);
  }
});

test('the empty claim passes without a signature', ({ node }) => {
  const empty = { service: 0n, rawData: new Uint8Array(0) };
  assert.ok(verifiesMessage(node.chain.claims, signedMessage('PrepareMessage', prepareOf(4, empty), new Uint8Array(0))));
});

test.run();
