// docs/p2p.md §2.1: the type byte of every native message, and which are sent signed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeMessage, encodeMessage, messageType, MESSAGE_TYPES } from '../../../../runtime/network/messages/index.js';
import { ALL_KINDS, SIGNED_SAMPLE_KINDS, sampleMessage } from './p2p-samples.js';

// The table of §2.1, written out again here so that the code is checked against the document.
const TABLE: Record<string, number> = {
  InitMessage: 1, RoutingEnvelope: 3, RouteUpdateMessage: 4, RouteSeqnoRequest: 5, RequestRoutesMessage: 6,
  HelloRequest: 32, BlockMessage: 34, ConfirmMessage: 35, RequestVoteRequest: 36, RequestVoteResponse: 37,
  PrepareMessage: 38, CommitMessage: 39, ViewChangeMessage: 40, RequestViewMessage: 41, StateChecksumMessage: 42,
  SnapshotPartMessage: 43, BlockHeaderMessage: 44, SnapshotVerifyMessage: 45, WasmProducerMessage: 64,
};

test('§2.1 every message kind has the type byte of the table', () => {
  assert.equal({ ...MESSAGE_TYPES }, TABLE);
  for (const kind of ALL_KINDS) assert.is(messageType(kind), TABLE[kind], kind);
});

test('§2.1 each frame starts with its type byte and decodes to its kind', () => {
  for (const kind of ALL_KINDS) {
    const frame = encodeMessage(sampleMessage(kind));
    assert.is(frame[0], TABLE[kind], kind);
    assert.is(decodeMessage(frame).kind, kind);
  }
});

test('§2.1 the signed kinds are the ones with a signer: they decode with a signature and a preimage', () => {
  for (const kind of ALL_KINDS) {
    const decoded = decodeMessage(encodeMessage(sampleMessage(kind)));
    assert.is('signature' in decoded, SIGNED_SAMPLE_KINDS.has(kind), kind);
    assert.is('preimage' in decoded, SIGNED_SAMPLE_KINDS.has(kind), kind);
    const body = (decoded as { body: object }).body;
    assert.is('signer' in body, SIGNED_SAMPLE_KINDS.has(kind), `${kind} has a signer exactly when it is signed`);
  }
});

test('§2.1 reserved and unused types below 64 decode as Unknown (to be ignored)', () => {
  for (const type of [0, 2, 7, 31, 33, 46, 63]) {
    assert.equal(decodeMessage(Uint8Array.of(type, 1, 2, 3)), { kind: 'Unknown', type });
  }
});

test.run();
