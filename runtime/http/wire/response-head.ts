import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';

// The head of a reply: status line, the caller's fields, then the fields the connection owns
// (Date, Connection, Keep-Alive, Content-Length).

export type ReplyHeaders = Record<string, string | string[]>;

/** Fields the connection writes itself: a caller's would contradict the framing. */
const CONNECTION_FIELDS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** Names checked valid, and their lower case (callers write the same few names again and again). */
const checkedNames = new Map<string, string>();
const CHECKED_NAMES_KEPT = 512;

function lowerCaseName(name: string): string {
  let lower = checkedNames.get(name);
  if (lower === undefined) {
    validateHeaderName(name);
    lower = name.toLowerCase();
    if (checkedNames.size >= CHECKED_NAMES_KEPT) checkedNames.clear();
    checkedNames.set(name, lower);
  }
  return lower;
}

/** The caller's fields as head lines. Throws (Node's ERR_INVALID_CHAR and kin) for a name or value that would break the head. */
export function fieldLines(headers: ReplyHeaders): { lines: string; close: boolean } {
  let lines = '';
  let close = false;
  for (const name in headers) {
    const lower = lowerCaseName(name);
    const value = headers[name]!;
    for (const v of Array.isArray(value) ? value : [value]) {
      validateHeaderValue(name, v);
      if (!CONNECTION_FIELDS.has(lower)) lines += `${name}: ${v}\r\n`;
      else if (lower === 'connection' && v.toLowerCase().split(',').some((t) => t.trim() === 'close')) close = true;
    }
  }
  return { lines, close };
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
