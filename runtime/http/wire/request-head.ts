import type { IncomingHttpHeaders } from 'node:http';
import { CheckedNames } from './fields.js';
import { WireError, badRequest } from './wire-error.js';

// The head of an HTTP/1.x request (RFC 9112 §2-5): request line and header fields, read from
// the latin1 text before the blank line.

/** Fields by lower-case name, joined as Node's http module joins repeats (and typed alike). */
export type RequestHeaders = IncomingHttpHeaders;

export interface RequestHead {
  readonly method: string;
  readonly url: string;
  /** The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1 (and later 1.x, read as 1.1). */
  readonly minorVersion: number;
  readonly headers: RequestHeaders;
  /** Names as sent and values, alternating, in the order received. */
  readonly rawHeaders: string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII and obs-text: no whitespace or control characters in a request target.
const TARGET = /^[\x21-\x7e\x80-\xff]+$/;
// Field values: visible ASCII, obs-text, space and tab (RFC 9110 §5.5).
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Fields whose repeats are dropped, the first kept (as Node's http module does). */
const FIRST_WINS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

const requestNames = new CheckedNames((name) => {
  if (!TOKEN.test(name)) throw badRequest(`invalid header name '${name}'`);
});

const isSpace = (c: number) => c === 0x20 || c === 0x09;

function addField(headers: RequestHeaders, name: string, value: string): void {
  const existing = headers[name];
  if (existing === undefined) {
    headers[name] = name === 'set-cookie' ? [value] : value;
  } else if (name === 'content-length' || name === 'host') {
    // Two lengths or two hosts make the request ambiguous (RFC 9112 §6.3, §3.2).
    if (existing !== value || name === 'host') throw badRequest(`repeated ${name} header`);
  } else if (Array.isArray(existing)) {
    existing.push(value);
  } else if (!FIRST_WINS.has(name)) {
    headers[name] = `${existing}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
}

/** The request line and fields of `text` (the head without its final blank line). */
export function parseRequestHead(text: string): RequestHead {
  const lines = text.split('\r\n');
  // A server ignores empty lines before the request line (RFC 9112 §2.2).
  let first = 0;
  while (first < lines.length && lines[first] === '') first++;
  const requestLine = lines[first] ?? '';
  const sp1 = requestLine.indexOf(' ');
  const sp2 = requestLine.indexOf(' ', sp1 + 1);
  if (sp1 <= 0 || sp2 < 0 || requestLine.indexOf(' ', sp2 + 1) >= 0) throw badRequest('malformed request line');
  const method = requestLine.slice(0, sp1);
  const url = requestLine.slice(sp1 + 1, sp2);
  const version = requestLine.slice(sp2 + 1);
  if (!TOKEN.test(method)) throw badRequest('invalid method');
  if (!TARGET.test(url)) throw badRequest('invalid request target');
  const match = /^HTTP\/(\d)\.(\d)$/.exec(version);
  if (!match) throw badRequest('invalid HTTP version');
  if (match[1] !== '1') throw new WireError(505, 'HTTP_VERSION_NOT_SUPPORTED', `HTTP/${match[1]} is not supported`);

  const headers: RequestHeaders = Object.create(null);
  const rawHeaders: string[] = [];
  for (let i = first + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    // A name with space before the colon, or a folded line (leading space), is refused (RFC 9112 §5).
    if (colon <= 0) throw badRequest('malformed header line');
    const rawName = line.slice(0, colon);
    const name = requestNames.lower(rawName);
    let start = colon + 1;
    let end = line.length;
    while (start < end && isSpace(line.charCodeAt(start))) start++;
    while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
    const value = line.slice(start, end);
    if (BAD_VALUE.test(value)) throw badRequest(`invalid character in header '${rawName}'`);
    rawHeaders.push(rawName, value);
    addField(headers, name, value);
  }
  return { method, url, minorVersion: match[2] === '0' ? 0 : 1, headers, rawHeaders };
}
