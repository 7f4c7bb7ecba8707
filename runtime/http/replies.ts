import { fieldLines, type DefaultFields, type ReplyHeaders, type WireResponse } from './wire/index.js';

// Writing replies: CORS header sets of docs/http.md §3 and the common body kinds.

/** CORS A: every origin, the methods services receive, any header. */
export const CORS_A: ReplyHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, HEAD, PUT, DELETE',
  'Access-Control-Allow-Headers': '*',
};

/** CORS B: as A, with the methods a 405 reply offers. */
export const CORS_B: ReplyHeaders = { ...CORS_A, 'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, HEAD' };

/**
 * CORS `fields` as the default fields of replies: left out of a reply that makes a CORS decision
 * of its own (an `Access-Control-*` field: credentialed CORS for one origin, say).
 */
export function corsDefaults(fields: ReplyHeaders): DefaultFields {
  return { lines: fieldLines(fields).lines, overriddenBy: (lower) => lower.startsWith('access-control-') };
}

/** CORS A, the default of every reply of a chain host (docs/serving.md §1.6). */
export const DEFAULT_CORS = corsDefaults(CORS_A);

/** CORS A with the request's own origin instead of `*` (for credentialed requests). */
export function echoCors(origin: string): ReplyHeaders {
  return { ...CORS_A, 'Access-Control-Allow-Origin': origin };
}

/**
 * Answers with `body` (Content-Length is the connection's). Throws at once, answering nothing,
 * for a header field that would break the reply's head (Node's ERR_INVALID_CHAR and kin).
 */
export function reply(res: WireResponse, status: number, contentType: string | undefined, body: Uint8Array | string, headers: ReplyHeaders = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.end(status, contentType === undefined ? headers : { ...headers, 'Content-Type': contentType }, bytes);
}

export function text(res: WireResponse, status: number, body: string, headers: ReplyHeaders = {}): void {
  reply(res, status, 'text/html', body, headers);
}

export function json(res: WireResponse, status: number, value: unknown, headers: ReplyHeaders = {}): void {
  reply(res, status, 'application/json', JSON.stringify(value), headers);
}

/** 302 to `location`, with an HTML page linking it (`<before><a>location</a><after>`); chain hosts add CORS A. */
export function redirect(res: WireResponse, location: string, before: string, after: string): void {
  const shown = escapeHtml(location);
  text(res, 302, `<html><body>${before}<a href="${shown}">${shown}</a>${after}</body></html>`, { Location: location });
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text put into an HTML body: a request target must not become markup (`/<script>…`). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export function notFound(res: WireResponse, target: string, headers: ReplyHeaders = {}): void {
  text(res, 404, `The resource '${escapeHtml(target)}' was not found`, headers);
}

export function methodNotAllowed(res: WireResponse, target: string, method: string, allow: string, headers: ReplyHeaders = {}): void {
  text(res, 405, `The resource '${escapeHtml(target)}' does not accept the method ${escapeHtml(method)}.`, { ...headers, Allow: allow });
}
