// Between BFT's wire messages (docs/p2p.md §2.2, 38-41; BlockConfirm in auxConsensusData, §3.5)
// and the state machine's: ids as hex, signatures kept as made, claims added and dropped; the
// re-packed prepares and commits are byte-exact with what was signed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../../../host-api/encoding/hex.js';
import type { BftMessage } from '../../../../runtime/network/consensus/bft-io.js';
import { encodeBlockConfirm } from '../../../../runtime/chain/commit-proofs.js';
import { bftMessageOf, bftPreimage, bftWireMessage, decodeBlockConfirm, type BftWireKind } from '../../../../runtime/network/bft-wire.js';
import { P2PMessageError, decodeMessage, encodeMessage, signingPreimage, type MessageOf } from '../../../../runtime/network/messages/index.js';

const claim = { service: 0x1234n, rawData: Uint8Array.of(1, 2, 3) };
const id = (byte: number) => bytesToHex(new Uint8Array(32).fill(byte));
const sig = (byte: number) => Uint8Array.of(byte, byte, byte);

function viaWire(message: BftMessage<Uint8Array>): BftMessage<Uint8Array> {
  return bftMessageOf(decodeMessage(encodeMessage(bftWireMessage(message, claim))) as MessageOf<BftWireKind>);
}

test('§2.2 prepares, commits and requests for views go to the wire and back unchanged', () => {
  const prepare: BftMessage<Uint8Array> = { kind: 'PrepareMessage', body: { blockId: id(0xab), producer: 7n }, signature: sig(9) };
  const commit: BftMessage<Uint8Array> = { kind: 'CommitMessage', body: { blockId: id(0xcd), producer: 8n }, signature: sig(4) };
  assert.equal(viaWire(prepare), prepare);
  assert.equal(viaWire(commit), commit);
  assert.equal(viaWire({ kind: 'RequestViewMessage' }), { kind: 'RequestViewMessage' });
});

test('§2.2 a view change keeps its prepares and next prepares, sorted as made', () => {
  const view: BftMessage<Uint8Array> = {
    kind: 'ViewChangeMessage',
    body: {
      term: 12, producer: 3n, bestPrepared: id(0x11), bestPreparedTerm: 11,
      prepares: [{ producer: 1n, signature: sig(1) }, { producer: 3n, signature: sig(3) }],
      nextPrepares: [{ producer: 5n, signature: sig(5) }],
    },
    signature: sig(7),
  };
  assert.equal(viaWire(view), view);
  const { nextPrepares: _next, ...single } = (view as Extract<BftMessage<Uint8Array>, { kind: 'ViewChangeMessage' }>).body;
  const plain: BftMessage<Uint8Array> = { kind: 'ViewChangeMessage', body: single, signature: sig(7) };
  assert.equal(viaWire(plain), plain, 'outside joint consensus there are no next prepares');
});

test('§2.2 what a producer signs is what a receiver re-packs from a ProducerConfirm (CommitMessage is a Struct)', () => {
  const unsigned = { kind: 'CommitMessage' as const, body: { blockId: id(0x42), producer: 6n } };
  const received = decodeMessage(encodeMessage(bftWireMessage({ ...unsigned, signature: sig(2) }, claim))) as MessageOf<'CommitMessage'>;
  assert.equal(received.preimage, bftPreimage(unsigned, claim));
  const repacked = signingPreimage('CommitMessage', { blockId: received.body.blockId, producer: 6n, signer: claim });
  assert.equal(repacked, received.preimage);
  assert.is(bftPreimage(unsigned, claim).length, 1 + 32 + 8 + 4 + 2 + 4 + 8 + 4 + 3, 'no u16 header: the fixed part is 44 bytes');
});

test('§3.5 a BlockConfirm in auxConsensusData goes and comes back; bytes that are none are P2P_BAD_MESSAGE', () => {
  const proof = { blockNum: 41, commits: [{ producer: 1n, signature: sig(1) }, { producer: 2n, signature: sig(2) }] };
  assert.equal(decodeBlockConfirm(encodeBlockConfirm(proof)), proof);
  const joint = { ...proof, nextCommits: [{ producer: 9n, signature: sig(9) }] };
  assert.equal(decodeBlockConfirm(encodeBlockConfirm(joint)), joint);
  try {
    decodeBlockConfirm(Uint8Array.of(1, 2));
    assert.unreachable('garbage decoded');
  } catch (err) {
    assert.instance(err, P2PMessageError);
    assert.is((err as P2PMessageError).code, 'P2P_BAD_MESSAGE');
  }
});

test.run();
