import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';

// Writing replies: CORS header sets of http.md §3 and the common body kinds.

export type Headers = Record<string, string | string[]>;

/** CORS A: every origin, the methods services receive, any header. */
export const CORS_A: Headers = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, HEAD, PUT, DELETE',
  'Access-Control-Allow-Headers': '*',
};

/** CORS B: as A, with the methods a 405 reply offers. */
export const CORS_B: Headers = { ...CORS_A, 'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, HEAD' };

/** CORS A with the request's own origin instead of `*` (for credentialed requests). */
export function echoCors(origin: string): Headers {
  return { ...CORS_A, 'Access-Control-Allow-Origin': origin };
}

interface QueuedReply {
  readonly res: ServerResponse;
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/** Replies written in this turn of the event loop, sent at its end. */
let queued: QueuedReply[] = [];

/**
 * Replies leave together at the end of the event-loop turn that wrote them (setImmediate runs
 * right after the turn's I/O callbacks). A write that wakes an idle client costs the sender far
 * more than one to a client already awake, so sending a turn's replies back to back (instead of
 * one between each request's work) roughly halves the kernel time per reply under load.
 */
function sendQueued(): void {
  const batch = queued;
  queued = [];
  for (const { res, status, headers, body } of batch) {
    res.writeHead(status, headers);
    res.end(body);
  }
}

/** Whether a reply for `res` was written (sent or about to leave); asked on error paths only. */
export function isAnswered(res: ServerResponse): boolean {
  return res.headersSent || queued.some((reply) => reply.res === res);
}

/**
 * Queues a reply for the end of the turn. Throws at once (Node's ERR_INVALID_CHAR and kin) for
 * a header Node would refuse: the batch is written where no handler could answer for it.
 */
export function reply(res: ServerResponse, status: number, contentType: string | undefined, body: Uint8Array | string, headers: Headers = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const all: Headers = { ...headers, 'Content-Length': String(bytes.length) };
  if (contentType !== undefined) all['Content-Type'] = contentType;
  for (const name in all) {
    validateHeaderName(name);
    const value = all[name]!;
    if (Array.isArray(value)) for (const v of value) validateHeaderValue(name, v);
    else validateHeaderValue(name, value);
  }
  if (queued.length === 0) setImmediate(sendQueued);
  queued.push({ res, status, headers: all, body: bytes });
}

export function text(res: ServerResponse, status: number, body: string, headers: Headers = {}): void {
  reply(res, status, 'text/html', body, headers);
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Headers = {}): void {
  reply(res, status, 'application/json', JSON.stringify(value), headers);
}

/** 302 to `location`, with an HTML page linking it (`<before><a>location</a><after>`) and CORS A. */
export function redirect(res: ServerResponse, location: string, before: string, after: string): void {
  const shown = escapeHtml(location);
  text(res, 302, `<html><body>${before}<a href="${shown}">${shown}</a>${after}</body></html>`, { ...CORS_A, Location: location });
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text put into an HTML body: a request target must not become markup (`/<script>…`). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export function notFound(res: ServerResponse, target: string, headers: Headers = {}): void {
  text(res, 404, `The resource '${escapeHtml(target)}' was not found`, headers);
}

export function methodNotAllowed(res: ServerResponse, target: string, method: string, allow: string, headers: Headers = {}): void {
  text(res, 405, `The resource '${escapeHtml(target)}' does not accept the method ${escapeHtml(method)}.`, { ...headers, Allow: allow });
}
