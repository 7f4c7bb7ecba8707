// Body framing against RFC 9112 §6-7 vectors: Content-Length and chunked bodies read whole
// however the bytes are split, and the framings refused with their status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyReaderFor, type BodyReader } from '../../../../../runtime/http/wire/request-body.js';
import { parseRequestHead } from '../../../../../runtime/http/wire/request-head.js';
import { wireRefusal } from './wire-refusal.js';

const LIMIT = 64;

function reader(fields: string, limit = LIMIT): BodyReader | undefined {
  return bodyReaderFor(parseRequestHead(`POST / HTTP/1.1\r\nHost: h${fields ? `\r\n${fields}` : ''}`), limit);
}

/** Feeds `wire` in pieces of `step` bytes; returns the body and the bytes left after it. */
function feed(body: BodyReader, wire: string, step: number): { body: string; rest: string } {
  const bytes = Buffer.from(wire, 'latin1');
  let rest = '';
  for (let at = 0; at < bytes.length; at += step) {
    const piece = bytes.subarray(at, at + step);
    if (body.done) {
      rest += piece.toString('latin1');
      continue;
    }
    const used = body.take(piece, 0);
    rest += piece.subarray(used).toString('latin1');
  }
  assert.ok(body.done, 'the body is complete');
  return { body: Buffer.from(body.body()).toString('latin1'), rest };
}

const CHUNKED = '4\r\nWiki\r\n7;ext=1\r\npedia i\r\nB \r\nn chunks.\r\n\r\n0\r\nTrailer: x\r\n\r\nGET';

test('no Content-Length and no Transfer-Encoding, or a zero length: no body', () => {
  assert.is(reader(''), undefined);
  assert.is(reader('Content-Length: 0'), undefined);
});

test('a Content-Length body, whole or byte by byte, stops at its length', () => {
  for (const step of [1, 3, 100]) {
    assert.equal(feed(reader('Content-Length: 5')!, 'helloGET /', step), { body: 'hello', rest: 'GET /' });
  }
});

test('a chunked body with extensions and trailers, whole or byte by byte, stops after the trailers', () => {
  for (const step of [1, 2, 5, 1000]) {
    assert.equal(feed(reader('Transfer-Encoding: chunked')!, CHUNKED, step), { body: 'Wikipedia in chunks.\r\n', rest: 'GET' }, `step ${step}`);
  }
  assert.equal(feed(reader('Transfer-Encoding: Chunked')!, '0\r\n\r\n', 1), { body: '', rest: '' });
});

test('bodies past the limit are 413, whether the length says so or the chunks add up to it', () => {
  const message = `request body exceeds ${LIMIT} bytes`;
  assert.equal(wireRefusal(() => reader(`Content-Length: ${LIMIT + 1}`)), { status: 413, message });
  const chunked = reader('Transfer-Encoding: chunked')!;
  const wire = Buffer.from(`20\r\n${'a'.repeat(32)}\r\n20\r\n${'b'.repeat(32)}\r\n1\r\nc\r\n0\r\n\r\n`, 'latin1');
  assert.equal(wireRefusal(() => chunked.take(wire, 0)), { status: 413, message });
});

test('framings that cannot be read are refused: 400, or 501 for a coding the node does not decode', () => {
  assert.equal(wireRefusal(() => reader('Content-Length: 5\r\nTransfer-Encoding: chunked')), { status: 400, message: 'both Transfer-Encoding and Content-Length' });
  assert.equal(wireRefusal(() => reader('Transfer-Encoding: gzip')), { status: 400, message: 'Transfer-Encoding does not end in chunked' });
  assert.equal(wireRefusal(() => reader('Transfer-Encoding: chunked, gzip')), { status: 400, message: 'Transfer-Encoding does not end in chunked' });
  assert.equal(wireRefusal(() => reader('Transfer-Encoding: gzip, chunked')), { status: 501, message: 'Transfer-Encoding gzip, chunked is not supported' });
  for (const length of ['-1', '1.5', '0x10', 'abc', '1 2']) {
    assert.equal(wireRefusal(() => reader(`Content-Length: ${length}`)), { status: 400, message: 'invalid Content-Length' }, length);
  }
});

test('malformed chunks are 400: a bad size, data longer than its size, a line without CRLF, an endless size line', () => {
  const take = (wire: string) => wireRefusal(() => reader('Transfer-Encoding: chunked')!.take(Buffer.from(wire, 'latin1'), 0));
  assert.equal(take('g\r\n'), { status: 400, message: 'invalid chunk size' });
  assert.equal(take('-1\r\n'), { status: 400, message: 'invalid chunk size' });
  assert.equal(take('123456789\r\n'), { status: 400, message: 'invalid chunk size' });
  assert.equal(take('2\r\nabc\r\n'), { status: 400, message: 'chunk data longer than its size' });
  assert.equal(take('2\nab\r\n'), { status: 400, message: 'chunk line not ended by CRLF' });
  assert.equal(take('1'.repeat(9000)), { status: 400, message: 'chunk line too long' });
});

test.run();
