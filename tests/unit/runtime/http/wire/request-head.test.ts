// parseRequestHead against RFC 9112 §2-5 vectors: what a request line and its fields say, how
// repeats join (as Node's http module joins them), and the heads refused with their status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRequestHead } from '../../../../../runtime/http/wire/request-head.js';
import { wireRefusal } from './wire-refusal.js';

const refusal = (text: string) => wireRefusal(() => parseRequestHead(text));

test('request line and fields: names lower-cased, values trimmed of spaces and tabs, raw pairs kept', () => {
  const head = parseRequestHead('GET /rows?x=1 HTTP/1.1\r\nHost: a.example\r\nX-Custom:\t v 1 \t\r\nAccept:');
  assert.is(head.method, 'GET');
  assert.is(head.url, '/rows?x=1');
  assert.is(head.minorVersion, 1);
  assert.equal({ ...head.headers }, { host: 'a.example', 'x-custom': 'v 1', accept: '' });
  assert.equal(head.rawHeaders, ['Host', 'a.example', 'X-Custom', 'v 1', 'Accept', '']);
});

test('HTTP/1.0 is minor version 0; a later 1.x is read as 1.1; empty lines before the request line are skipped', () => {
  assert.is(parseRequestHead('GET / HTTP/1.0').minorVersion, 0);
  assert.is(parseRequestHead('GET / HTTP/1.7\r\nHost: h').minorVersion, 1);
  assert.is(parseRequestHead('\r\n\r\nPOST /x HTTP/1.1\r\nHost: h').method, 'POST');
});

test('repeats: cookies join with "; ", set-cookie is a list, single-valued fields keep the first, others join with ", "', () => {
  const head = parseRequestHead([
    'GET / HTTP/1.1', 'Host: h', 'Cookie: a=1', 'cookie: b=2', 'Set-Cookie: s=1', 'Set-Cookie: s=2',
    'Content-Type: text/plain', 'Content-Type: text/html', 'Accept: a/b', 'ACCEPT: c/d', 'User-Agent: one', 'User-Agent: two',
  ].join('\r\n'));
  assert.is(head.headers.cookie, 'a=1; b=2');
  assert.equal(head.headers['set-cookie'], ['s=1', 's=2']);
  assert.is(head.headers['content-type'], 'text/plain');
  assert.is(head.headers.accept, 'a/b, c/d');
  assert.is(head.headers['user-agent'], 'one');
  assert.is(head.rawHeaders.length, 22);
});

test('the same Content-Length twice is one length; two different ones, or two Hosts, are refused', () => {
  assert.is(parseRequestHead('POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3').headers['content-length'], '3');
  assert.equal(refusal('POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4'), { status: 400, message: 'repeated content-length header' });
  assert.equal(refusal('GET / HTTP/1.1\r\nHost: h\r\nHost: h'), { status: 400, message: 'repeated host header' });
});

test('malformed request lines are 400; another major version is 505', () => {
  for (const line of ['GET /', 'GET  / HTTP/1.1', 'GET / HTTP/1.1 extra', ' GET / HTTP/1.1', 'GET / http/1.1', 'GET / HTTP/1', '']) {
    assert.is(refusal(line)?.status, 400, JSON.stringify(line));
  }
  assert.equal(refusal('G(T / HTTP/1.1'), { status: 400, message: 'invalid method' });
  assert.equal(refusal('GET /a\x7fb HTTP/1.1'), { status: 400, message: 'invalid request target' });
  assert.equal(refusal('GET / HTTP/2.0'), { status: 505, message: 'HTTP/2 is not supported' });
});

test('malformed fields are 400: no colon, space before the colon, folded lines, bad name or value characters', () => {
  assert.equal(refusal('GET / HTTP/1.1\r\nHost h'), { status: 400, message: 'malformed header line' });
  assert.equal(refusal('GET / HTTP/1.1\r\n: v'), { status: 400, message: 'malformed header line' });
  assert.equal(refusal('GET / HTTP/1.1\r\nHost : h'), { status: 400, message: "invalid header name 'Host '" });
  assert.equal(refusal('GET / HTTP/1.1\r\nX-A: 1\r\n continued'), { status: 400, message: 'malformed header line' });
  assert.equal(refusal('GET / HTTP/1.1\r\nX-A: 1\r\n\tX-B: 2'), { status: 400, message: "invalid header name '\tX-B'" });
  assert.equal(refusal('GET / HTTP/1.1\r\nX(A): 1'), { status: 400, message: "invalid header name 'X(A)'" });
  for (const value of ['a\0b', 'a\nb', 'a\rb', 'a\x7fb']) {
    assert.equal(refusal(`GET / HTTP/1.1\r\nX-A: ${value}`), { status: 400, message: "invalid character in header 'X-A'" }, JSON.stringify(value));
  }
  // obs-text (bytes 0x80-0xff read as latin1) is allowed in values.
  assert.is(parseRequestHead('GET / HTTP/1.1\r\nX-A: caf\xe9').headers['x-a'], 'caf\xe9');
});

test.run();
