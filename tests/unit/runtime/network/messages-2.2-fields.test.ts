// docs/p2p.md §2.2: every message round-trips field for field, and the layout facts the section
// states (Struct versus Object, nested<SignedBlock>, trailing optionals) hold on the wire.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeMessage, encodeMessage, p2pSchema } from '../../../../runtime/network/messages/index.js';
import { bytesToHex } from '../../../lib/hex.js';
import { ALL_KINDS, SAMPLE_BODIES, sampleMessage } from './p2p-samples.js';

for (const kind of ALL_KINDS) {
  test(`§2.2 ${kind} round-trips: decode(encode(m)) is m, and encode(decode(frame)) is frame`, () => {
    const message = sampleMessage(kind);
    const frame = encodeMessage(message);
    const decoded = decodeMessage(frame);
    assert.equal(decoded, message);
    assert.is(bytesToHex(encodeMessage(decoded)), bytesToHex(frame));
  });
}

test('§2.2 CommitMessage is a Struct: no u16 header, block_id then producer then the claim offset (44 fixed bytes)', () => {
  const frame = encodeMessage(sampleMessage('CommitMessage'));
  const preimage = (decodeMessage(frame) as { preimage: Uint8Array }).preimage;
  const body = SAMPLE_BODIES.CommitMessage;
  assert.is(bytesToHex(preimage.subarray(1, 33)), bytesToHex(body.blockId));
  assert.is(new DataView(preimage.buffer, preimage.byteOffset).getBigUint64(33, true), body.producer);
  assert.is(new DataView(preimage.buffer, preimage.byteOffset).getUint32(41, true), 4, 'the claim follows the 44-byte fixed part');
});

test('§2.2 PrepareMessage is an Object: a u16 header of 44', () => {
  const preimage = (decodeMessage(encodeMessage(sampleMessage('PrepareMessage'))) as { preimage: Uint8Array }).preimage;
  assert.is(preimage[1]! | (preimage[2]! << 8), 44);
});

test('§2.2 BlockMessage carries nested<SignedBlock>: a u32 size, then the packed SignedBlock', () => {
  const frame = encodeMessage(sampleMessage('BlockMessage'));
  const packedBlock = p2pSchema.type('SignedBlock').pack(SAMPLE_BODIES.BlockMessage.block);
  // type 34, Object header: 4 fixed bytes, the offset 4, then the nested size and the block
  assert.is(bytesToHex(frame.subarray(0, 7)), '22040004000000');
  const view = new DataView(frame.buffer, frame.byteOffset);
  assert.is(view.getUint32(7, true), packedBlock.length);
  assert.is(bytesToHex(frame.subarray(11)), bytesToHex(packedBlock));
});

test('§2.2 ViewChange leaves out an absent trailing nextPrepares; RouteUpdate leaves out an absent router', () => {
  const withNext = encodeMessage(sampleMessage('ViewChangeMessage'));
  const body = { ...SAMPLE_BODIES.ViewChangeMessage, nextPrepares: null };
  const packedWith = p2pSchema.type('ViewChangeMessage').pack(SAMPLE_BODIES.ViewChangeMessage);
  const packedWithout = p2pSchema.type('ViewChangeMessage').pack(body);
  assert.is(packedWith[0]! | (packedWith[1]! << 8), 4 + 8 + 4 + 32 + 4 + 4 + 4);
  assert.is(packedWithout[0]! | (packedWithout[1]! << 8), 4 + 8 + 4 + 32 + 4 + 4);
  assert.is(withNext.length, 1 + 4 + 4 + 4 + packedWith.length + 4 + 64, 'type, two offsets, the nested body, the 64-byte signature');
  const update = p2pSchema.type('RouteUpdateMessage').pack({ ...SAMPLE_BODIES.RouteUpdateMessage, router: null });
  assert.is(update[0]! | (update[1]! << 8), 12);
});

test('§2.2 BlockConfirm (auxConsensusData) round-trips, sorted commits kept in order', () => {
  const BlockConfirm = p2pSchema.type('BlockConfirm');
  const value = { blockNum: 12, commits: SAMPLE_BODIES.ViewChangeMessage.prepares, nextCommits: null };
  const packed = BlockConfirm.pack(value);
  assert.equal(BlockConfirm.unpack(packed), value);
  assert.is(packed[0]! | (packed[1]! << 8), 8, 'blockNum and the commits offset; nextCommits left out');
});

test('§2.2 RouteSeqnoRequest is {producer, seqno, ttl}: 12 fixed bytes', () => {
  const frame = encodeMessage(sampleMessage('RouteSeqnoRequest'));
  assert.is(bytesToHex(frame), '050C00' + '2211000000000000' + '0200' + '4000');
});

test.run();
