// The bytes of the query threads' messages (runtime/chain/query-message-bytes.ts; docs/serving.md
// §10): changes, requests and answers come back from their bytes exactly as they were, through a
// real MessageChannel that moves the buffer, strings with every code unit (lone surrogates,
// binary-string keys), and row values that do not hold the message's buffer.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ViewChanges } from '../../../../runtime/db/shared-reads.js';
import { decodeAnswers, decodeRequests, encodeAnswers, encodeRequests } from '../../../../runtime/chain/query-message-bytes.js';
import type { QueryAnswer, QueryRequest } from '../../../../runtime/chain/query-messages.js';
import { allocBytes } from '../../../../host-api/encoding/bytes.js';

const bytes = suite('query message bytes');

/** Moves `buffer` to another port, as postMessage to a thread does, and returns what arrives. */
function moved(buffer: ArrayBuffer): ArrayBuffer {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(buffer, [buffer]);
  assert.is(buffer.byteLength, 0, 'the sender no longer holds the buffer');
  const received = receiveMessageOnPort(port2)!.message as ArrayBuffer;
  port1.close();
  return received;
}

const binaryKey = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
const slabValue = allocBytes(300).fill(7);

const VIEWS: ViewChanges[] = [
  {
    commits: 2 ** 40 + 3,
    chain: { cleared: false, rows: [[1, binaryKey, slabValue], [2, '', null], [3, 'gone', undefined], [4, 'empty', new Uint8Array(0)]] },
    subjective: { cleared: true, rows: [] },
  },
  { commits: 0, chain: { cleared: true, rows: [] }, subjective: { cleared: false, rows: [[64, '\ud800 lone', new Uint8Array([1, 2, 3])]] } },
];

const REQUESTS: QueryRequest[] = [
  { id: 1, socket: 2 ** 31 - 1, rawData: slabValue },
  { id: 2 ** 50, socket: 7, rawData: new Uint8Array(0) },
];

const ANSWERS: QueryAnswer[] = [
  {
    id: 2 ** 33,
    error: null,
    sockets: {
      replies: [
        { socket: 9, reply: { status: 200, contentType: 'application/json', headers: [{ name: 'X-A', value: 'é \ud83d\ude00' }, { name: 'X-A', value: '' }], body: slabValue } },
        { socket: 10, reply: { status: 65535, contentType: '', headers: [], body: new Uint8Array(0) } },
      ],
      unanswered: [11, 2 ** 31 - 1],
    },
  },
  { id: 3, error: 'abort: \udc00 half a pair', sockets: { replies: [], unanswered: [] } },
  { id: 4, handedOff: 'a read of the session database (66)' },
];

/** Values as plain data: byte arrays as their bytes, whatever buffer holds them. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v) => (v instanceof Uint8Array ? { bytes: [...v] } : v === undefined ? { undefined: true } : v)));
}

bytes('changes and requests come back as they were sent, changes in their order', () => {
  const { views, requests } = decodeRequests(moved(encodeRequests(VIEWS, REQUESTS)));
  assert.equal(plain(views), plain(VIEWS));
  assert.equal(plain(requests), plain(REQUESTS));
  assert.is(views[0]!.chain.rows[2]![2], undefined, 'a row gone from the overlay');
  assert.is(views[0]!.chain.rows[1]![2], null, 'a row the overlay deletes');
  assert.is(views[1]!.subjective.rows[0]![1], '\ud800 lone');
});

bytes('a row value kept by the thread is a copy, not a view of the whole message', () => {
  const message = moved(encodeRequests(VIEWS, REQUESTS));
  const { views, requests } = decodeRequests(message);
  const value = views[0]!.chain.rows[0]![2] as Uint8Array;
  assert.is.not(value.buffer, message);
  assert.is(requests[0]!.rawData.buffer, message, 'a request reads its bytes where they arrived');
});

bytes('a message without changes or requests, and many requests', () => {
  assert.equal(decodeRequests(moved(encodeRequests([], []))), { views: [], requests: [] });
  const many = Array.from({ length: 500 }, (_, i) => ({ id: i, socket: i, rawData: new Uint8Array(i).fill(i & 0xff) }));
  assert.equal(plain(decodeRequests(moved(encodeRequests([], many))).requests), plain(many));
});

bytes('answers come back as they were sent: outcomes, errors and hand-backs', () => {
  const answers = decodeAnswers(moved(encodeAnswers(ANSWERS)));
  assert.equal(plain(answers), plain(ANSWERS));
  assert.is((answers[1] as { error: string }).error, 'abort: \udc00 half a pair');
  assert.equal(decodeAnswers(moved(encodeAnswers([]))), []);
});

bytes.run();
