// Blocks between the wire and block sync (docs/p2p.md §2.2, §3.2): the id of the block in a
// BlockMessage frame is read from its header alone, and is the id of the block decoded whole; any
// other frame, or one cut short inside the header, has none; a received block's frame is the
// frame it is streamed on in, and what it weighs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ALL_KINDS, sampleMessage } from './p2p-samples.js';
import { decodeMessage, encodeMessage, type MessageOf } from '../../../../runtime/network/messages/index.js';
import { frameBlockId, frameBytesOf, noteFrame, syncFrameOf, syncHeaderOf } from '../../../../runtime/network/wire-blocks.js';

const blockFrame = () => encodeMessage(sampleMessage('BlockMessage'));

test('the id read from a BlockMessage frame is the id of its block decoded whole', () => {
  const frame = blockFrame();
  const decoded = decodeMessage(frame) as MessageOf<'BlockMessage'>;
  assert.is(frameBlockId(frame), syncHeaderOf(decoded.body.block).id);
  assert.is(parseInt(frameBlockId(frame)!.slice(0, 8), 16), 12, 'the id names block 12');
});

test('another kind of frame, or one cut short inside the header, has no block id', () => {
  for (const kind of ALL_KINDS.filter((k) => k !== 'BlockMessage')) assert.is(frameBlockId(encodeMessage(sampleMessage(kind))), undefined, kind);
  assert.is(frameBlockId(blockFrame().subarray(0, 40)), undefined);
  assert.is(frameBlockId(new Uint8Array(0)), undefined);
});

test('a received block is streamed on in the frame it came in, which is what it weighs', () => {
  const frame = blockFrame();
  const block = (decodeMessage(frame) as MessageOf<'BlockMessage'>).body.block;
  assert.is(frameBytesOf(block), 0, 'nothing is known of a block before it has a frame');
  noteFrame(block, frame);
  assert.is(syncFrameOf({ kind: 'BlockMessage', body: { block } }), frame);
  assert.is(frameBytesOf(block), frame.length);
});

test.run();
