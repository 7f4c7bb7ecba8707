import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import { CheckedNames, listsToken } from './fields.js';

// The head of a reply: status line, the caller's fields, then the fields the connection owns
// (Date, Connection, Keep-Alive, Content-Length).

export type ReplyHeaders = Record<string, string | string[]>;

/** Fields the connection writes itself: a caller's would contradict the framing. */
const CONNECTION_FIELDS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

const replyNames = new CheckedNames(validateHeaderName);

function addField(out: { lines: string; close: boolean }, name: string, lower: string, value: string): void {
  validateHeaderValue(name, value);
  if (!CONNECTION_FIELDS.has(lower)) out.lines += `${name}: ${value}\r\n`;
  else if (lower === 'connection' && listsToken(value, 'close')) out.close = true;
}

/**
 * Fields the node adds to every reply of a kind, as head lines made once, unless the reply has a
 * field of its own that `overriddenBy` names (by its lower-case name).
 */
export interface DefaultFields {
  readonly lines: string;
  overriddenBy(lower: string): boolean;
}

/**
 * The caller's fields as head lines, then `defaults` unless a field overrides them. Throws
 * (Node's ERR_INVALID_CHAR and kin) for a name or value that would break the head.
 */
export function fieldLines(headers: ReplyHeaders, defaults?: DefaultFields): { lines: string; close: boolean } {
  const out = { lines: '', close: false };
  let overridden = defaults === undefined;
  for (const name in headers) {
    const lower = replyNames.lower(name);
    const value = headers[name]!;
    if (Array.isArray(value)) for (const v of value) addField(out, name, lower, v);
    else addField(out, name, lower, value);
    if (!overridden && defaults!.overriddenBy(lower)) overridden = true;
  }
  if (!overridden) out.lines += defaults!.lines;
  return out;
}

let dateSecond = -1;
let dateText = '';

/** The Date field's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** Whether a reply of `status` carries a body (RFC 9110 §6.4.1). */
export function statusHasBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/** The whole head: status line, the caller's `fields` (from fieldLines), then the connection's own. */
export function replyHead(status: number, fields: string, bodyLength: number, keepAlive: 'close' | number): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n${fields}Date: ${httpDate()}\r\n`;
  if (keepAlive === 'close') head += 'Connection: close\r\n';
  else head += keepAlive > 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAlive / 1000)}\r\n` : 'Connection: keep-alive\r\n';
  if (status >= 200 && status !== 204) head += `Content-Length: ${bodyLength}\r\n`;
  return `${head}\r\n`;
}

/** A reply's bytes: its head, then `body` (none for a reply without one). */
export function replyBytes(head: string, body: Uint8Array): Buffer {
  const bytes = Buffer.allocUnsafe(head.length + body.length);
  bytes.write(head, 0, 'latin1');
  bytes.set(body, head.length);
  return bytes;
}

/** A whole reply that closes its connection, for a socket no WireResponse writes to (a refused upgrade). */
export function closingReply(status: number, headers: ReplyHeaders, body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return replyBytes(replyHead(status, fieldLines(headers).lines, bytes.length, 'close'), bytes);
}
