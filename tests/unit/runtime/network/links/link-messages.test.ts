// The link layer's x-peers messages (docs/p2p.md §1.4): byte-exact frames, round trips, refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LinkError } from '../../../../../runtime/network/links/link-error.js';
import { decodeLinkMessage, encodeLinkMessage, type LinkMessage } from '../../../../../runtime/network/links/link-messages.js';
import { assertFails } from '../../../../lib/assert-error.js';
import { bytesToHex, hex } from '../../../../lib/hex.js';

// [type][u32 LE size of what follows][fracpack Object: u16 fixed size, fixed fields, heap]
const FRAMES: Array<[LinkMessage, string]> = [
  [{ kind: 'id', nodeId: 0x0102030405060708n, connectionId: 5 }, '40 0e000000 0c00 0807060504030201 05000000'],
  [{ kind: 'duplicateConnection', connectionId: -1, secure: true }, '41 07000000 0500 ffffffff 01'],
  // hosts: offset 4 to the list; the list: 4 bytes of offsets, one offset 4 to "a" (u32 length 1)
  [{ kind: 'hostnames', hosts: ['a'] }, '42 13000000 0400 04000000 04000000 04000000 01000000 61'],
  [{ kind: 'checkDuplicates' }, '43 02000000 0000'],
];

test('each message packs to the bytes psibase x-peers sends, and back', () => {
  for (const [message, frame] of FRAMES) {
    assert.is(bytesToHex(encodeLinkMessage(message)), bytesToHex(hex(frame)), message.kind);
    assert.equal(decodeLinkMessage(hex(frame)), message, message.kind);
  }
});

test('hostnames with several names and an empty list round-trip', () => {
  for (const hosts of [[], ['psibase.localhost', '127.0.0.1', 'ünïcode.example']]) {
    const message: LinkMessage = { kind: 'hostnames', hosts };
    assert.equal(decodeLinkMessage(encodeLinkMessage(message)), message);
  }
});

test('a newer peer\'s extra fields are accepted', () => {
  // IdMessage with a third field, an optional whose value follows the fixed area: fixed size 16.
  const frame = hex('40 16000000 1000 0100000000000000 02000000 04000000 2a000000');
  assert.equal(decodeLinkMessage(frame), { kind: 'id', nodeId: 1n, connectionId: 2 });
});

test('empty, unknown and malformed frames are LinkErrors that say what is wrong', () => {
  assertFails(() => decodeLinkMessage(new Uint8Array()), LinkError, 'P2P_BAD_LINK_MESSAGE', ['empty']);
  assertFails(() => decodeLinkMessage(hex('ff00')), LinkError, 'P2P_BAD_LINK_MESSAGE', ['unknown link message type 255']);
  assertFails(() => decodeLinkMessage(hex('40')), LinkError, 'P2P_BAD_LINK_MESSAGE', ['type 64']);
  assertFails(() => decodeLinkMessage(hex('40 0e000000 0c00 08070605')), LinkError, 'P2P_BAD_LINK_MESSAGE', ['type 64']);
  assertFails(() => decodeLinkMessage(hex('41 07000000 0500 ffffffff 02')), LinkError, 'P2P_BAD_LINK_MESSAGE', ['type 65']);
});

test.run();
