// docs/p2p.md §2.0: framing, signed messages and their preimage, and refusal of bad frames with
// the stable code P2P_BAD_MESSAGE (a decode failure closes the link).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  decodeMessage, encodeMessage, P2PMessageError, p2pSchema, signedMessage, signingPreimage, type P2PMessage,
} from '../../../../runtime/network/messages/index.js';
import { assertFails } from '../../../lib/assert-error.js';
import { bytesToHex, hex } from '../../../lib/hex.js';
import { Random } from '../../../lib/random.js';
import { ALL_KINDS, SAMPLE_BODIES, sampleMessage } from './p2p-samples.js';

test('§2.0 a frame is [type][fracpack(T)], no length prefix', () => {
  const frame = encodeMessage({ kind: 'RouteSeqnoRequest', body: SAMPLE_BODIES.RouteSeqnoRequest });
  assert.is(bytesToHex(frame.subarray(1)), bytesToHex(p2pSchema.type('RouteSeqnoRequest').pack(SAMPLE_BODIES.RouteSeqnoRequest)));
});

test('§2.0 signing preimage is [type] ‖ fracpack(T)', () => {
  const body = SAMPLE_BODIES.PrepareMessage;
  const preimage = signingPreimage('PrepareMessage', body);
  assert.is(preimage[0], 38);
  assert.is(bytesToHex(preimage.subarray(1)), bytesToHex(p2pSchema.type('PrepareMessage').pack(body)));
});

test('§2.0 SignedMessage<T> is a Struct {nested T, signature}: the frame holds the preimage and the signature', () => {
  const signature = new Uint8Array(64).fill(0xab);
  const message = signedMessage('RequestVoteRequest', SAMPLE_BODIES.RequestVoteRequest, signature);
  const frame = encodeMessage(message);
  const view = new DataView(frame.buffer, frame.byteOffset);
  assert.is(frame[0], 36);
  assert.is(view.getUint32(1, true), 8, 'data offset: just after the two 4-byte slots');
  const dataLength = view.getUint32(9, true);
  assert.is(bytesToHex(frame.subarray(13, 13 + dataLength)), bytesToHex(message.preimage.subarray(1)));
  assert.is(view.getUint32(13 + dataLength, true), 64);
  assert.is(bytesToHex(frame.subarray(17 + dataLength)), bytesToHex(signature));
});

test('§2.0 a decoded signed message keeps the bytes as received as its preimage (unknown extensions included)', () => {
  // A newer peer's Confirm with one more field, an optional u8 (extensions are optional, so
  // 4-byte offsets): psibase's from_frac accepts it, and the signature covers those bytes.
  const extended = hex('1800 05000000 3412000000000000 64000000 08000000 12000000 0c00 0000000000000000 00000000 07');
  const frame = hex('23 08000000 00000000 29000000');
  const whole = new Uint8Array(frame.length + extended.length);
  whole.set(frame);
  whole.set(extended, frame.length);
  const decoded = decodeMessage(whole) as Extract<P2PMessage, { kind: 'ConfirmMessage' }>;
  assert.is(decoded.body.headNum, 100);
  assert.is(bytesToHex(decoded.preimage), '23' + bytesToHex(extended));
  assert.is(bytesToHex(encodeMessage(decoded)), bytesToHex(whole), 'relaying sends the same bytes');
});

test('§2.0 an empty frame is refused with P2P_BAD_MESSAGE', () => {
  assertFails(() => decodeMessage(new Uint8Array(0)), P2PMessageError, 'P2P_BAD_MESSAGE', ['empty']);
});

for (const kind of ALL_KINDS) {
  test(`§2.0 every truncation of a ${kind} frame is refused with P2P_BAD_MESSAGE naming the type`, () => {
    const frame = encodeMessage(sampleMessage(kind));
    for (let length = 1; length < frame.length; length++) {
      assertFails(() => decodeMessage(frame.subarray(0, length)), P2PMessageError, 'P2P_BAD_MESSAGE', [kind, `type ${frame[0]}`]);
    }
  });
}

test('§2.0 a signed frame whose nested bytes are not a valid T is refused', () => {
  const frame = encodeMessage(sampleMessage('ConfirmMessage'));
  const bad = frame.slice();
  bad[13] = 0xff; // the nested Confirm's header now claims 255 fixed bytes
  assertFails(() => decodeMessage(bad), P2PMessageError, 'P2P_BAD_MESSAGE', ['ConfirmMessage', 'type 35']);
});

test('§2.0 trailing bytes after a message are refused', () => {
  const frame = encodeMessage({ kind: 'InitMessage', body: { version: 0 } });
  assertFails(() => decodeMessage(Uint8Array.of(...frame, 0)), P2PMessageError, 'P2P_BAD_MESSAGE', ['InitMessage']);
});

test('§2.0 a bool byte other than 0 or 1 is refused', () => {
  const frame = encodeMessage({ kind: 'HelloRequest', body: SAMPLE_BODIES.HelloRequest });
  frame[7] = 2;
  assertFails(() => decodeMessage(frame), P2PMessageError, 'P2P_BAD_MESSAGE', ['HelloRequest', 'BOOL']);
});

test('§2.0 garbage never decodes to a half-valid message: it is refused, or it is a whole valid value', () => {
  const random = new Random(20260821);
  let refused = 0;
  for (let i = 0; i < 4000; i++) {
    const kind = random.pick(ALL_KINDS);
    const frame = encodeMessage(sampleMessage(kind));
    // flip a few bytes of a valid frame, or take random bytes after its type byte
    const garbage = random.bool() ? frame.slice() : Uint8Array.of(frame[0]!, ...random.bytes(random.int(80)));
    if (garbage.length === frame.length) for (let n = 1 + random.int(3); n > 0; n--) garbage[1 + random.int(garbage.length - 1)] = random.int(256);
    let decoded: P2PMessage;
    try {
      decoded = decodeMessage(garbage);
    } catch (err) {
      assert.instance(err, P2PMessageError);
      assert.is((err as P2PMessageError).code, 'P2P_BAD_MESSAGE');
      refused++;
      continue;
    }
    // Whatever decoded is a complete value: it encodes, and that encoding decodes to it again.
    assert.equal(decodeMessage(encodeMessage(decoded)), decoded);
  }
  assert.ok(refused > 1000, `most garbage is refused (${refused})`);
});

test('encoding a value that does not fit its type fails with P2P_UNENCODABLE', () => {
  assertFails(() => encodeMessage({ kind: 'InitMessage', body: { version: -1 } }), P2PMessageError, 'P2P_UNENCODABLE', ['InitMessage']);
  assertFails(() => encodeMessage({ kind: 'Unknown', type: 7 }), P2PMessageError, 'P2P_UNENCODABLE', ['7']);
});

test.run();
