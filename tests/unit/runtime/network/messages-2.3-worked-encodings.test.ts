// docs/p2p.md §2.3: the worked encodings (tests/vectors/p2p-messages.json, copied from the
// document) encode and decode exactly, and the BlockHeader fixed-size facts hold.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BlockHeader } from '../../../../host-api/types/index.js';
import {
  decodeMessage, encodeMessage, p2pSchema, signedMessage, SIGNED_TYPES, type MessageKind, type P2PMessage, type SignedKind,
} from '../../../../runtime/network/messages/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';

interface Vector { title: string; kind: MessageKind; body: unknown; signature?: string; frame: string }

// Vectors live in the source tree; tests run from dist/tests/unit/runtime/network.
const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'tests', 'vectors', 'p2p-messages.json');
const vectors = JSON.parse(readFileSync(VECTORS, 'utf8')) as Vector[];

function messageOf(v: Vector): P2PMessage {
  const body = p2pSchema.type(v.kind).fromJson(v.body);
  if (Object.hasOwn(SIGNED_TYPES, v.kind)) {
    return signedMessage(v.kind as SignedKind, body as never, hex(v.signature ?? ''));
  }
  return { kind: v.kind, body } as P2PMessage;
}

test('§2.3 the vector file holds the eight worked encodings', () => {
  assert.is(vectors.length, 8);
});

for (const v of vectors) {
  test(`§2.3 ${v.title}: encodes to the given bytes`, () => {
    assert.is(bytesToHex(encodeMessage(messageOf(v))), bytesToHex(hex(v.frame)));
  });

  test(`§2.3 ${v.title}: decodes from the given bytes`, () => {
    const decoded = decodeMessage(hex(v.frame));
    assert.is(decoded.kind, v.kind);
    assert.equal(p2pSchema.type<unknown>(v.kind).toJson((decoded as { body: unknown }).body), v.body);
    if (v.signature !== undefined) {
      const signed = decoded as Extract<P2PMessage, { signature: Uint8Array }>;
      assert.is(bytesToHex(signed.signature), v.signature.toUpperCase());
    }
  });
}

test('§2.3 the signed Confirm: its preimage is the type byte and the nested bytes as sent', () => {
  const confirm = vectors.find((v) => v.kind === 'ConfirmMessage')!;
  const frame = hex(confirm.frame);
  const decoded = decodeMessage(frame) as Extract<P2PMessage, { kind: 'ConfirmMessage' }>;
  // frame: type, data offset (4), signature offset (4), data length (4), data (36)
  assert.is(bytesToHex(decoded.preimage), bytesToHex(Uint8Array.of(0x23, ...frame.subarray(13))));
});

const header = {
  previous: new Uint8Array(32), blockNum: 7, time: 1_700_000_000_000_000n, producer: 0x1234n, term: 2, commitNum: 6,
  consensusState: new Uint8Array(32), trxMerkleRoot: new Uint8Array(32), eventMerkleRoot: new Uint8Array(32),
  newConsensus: null, authCode: null,
};
const consensus = {
  data: { CftConsensus: { producers: [] } },
  services: [],
  wasmConfig: { numExecutionMemories: 1, vmOptions: { maxMutableGlobalBytes: 1, maxPages: 1, maxTableElements: 1, maxStackBytes: 1 } },
};
const fixedSize = (packed: Uint8Array): number => packed[0]! | (packed[1]! << 8);

test('§2.3 BlockHeader fixed size: 156 with both optionals absent', () => {
  assert.is(fixedSize(BlockHeader.pack(header)), 156);
});

test('§2.3 BlockHeader fixed size: 160 with newConsensus only', () => {
  assert.is(fixedSize(BlockHeader.pack({ ...header, newConsensus: consensus })), 160);
});

test('§2.3 BlockHeader fixed size: 164 with authCode', () => {
  assert.is(fixedSize(BlockHeader.pack({ ...header, authCode: [] })), 164);
  assert.is(fixedSize(BlockHeader.pack({ ...header, newConsensus: consensus, authCode: [] })), 164);
});

test.run();
