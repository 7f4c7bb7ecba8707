import { TsibaseError } from '../../host-api/errors.js';
import { parseRequestHead, WireRequest, WireResponse, type RequestConnection, type ReplySink } from '../http/wire/index.js';

// HTTP without a socket: a request made in this process becomes the WireRequest a connection
// would have read, and the WireResponse's reply, the bytes a connection would have written, is
// read back into status, fields and body. The node's handler serves both sides unchanged.

export interface TestHttpRequest {
  /** GET unless given. */
  readonly method?: string;
  /** The Host field: the chain's root host unless given (`tokens.tsibase.localhost`, ...). */
  readonly host?: string;
  /** The request target, from `/`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

export interface TestHttpReply {
  readonly status: number;
  /** Fields by lower-case name; a repeated field's values in order. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Uint8Array;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json(): unknown;
}

/** A request from this process has no remote address, as one over a unix socket (this machine). */
const IN_PROCESS: RequestConnection = Object.freeze({});

const HEAD_END = '\r\n\r\n';

const LINE_BREAK = /[\r\n]/;

/** The head of `request` without its blank line: the request line, Host, the caller's fields and the body's length. */
function requestHeadText(request: TestHttpRequest, host: string, bodyLength: number): string {
  const method = request.method ?? 'GET';
  const parts = [method, request.path, host, ...Object.entries(request.headers ?? {}).flat()];
  if (parts.some((part) => LINE_BREAK.test(part))) {
    throw new TsibaseError('TESTCHAIN_BAD_REQUEST', 'a request\'s method, path, host and fields may not hold a line break');
  }
  const lines = [`${method} ${request.path} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  const sized = Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'content-length');
  if (bodyLength > 0 && !sized) lines.push(`Content-Length: ${bodyLength}`);
  return lines.join('\r\n');
}

/** A reply's bytes as written to a connection, read back. */
function readReply(bytes: Buffer): TestHttpReply {
  const end = bytes.indexOf(HEAD_END, 0, 'latin1');
  const lines = bytes.toString('latin1', 0, end).split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const headers: Record<string, string | string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  const body = new Uint8Array(bytes.subarray(end + HEAD_END.length));
  return {
    status, headers, body,
    text: () => Buffer.from(body).toString('utf8'),
    json: () => JSON.parse(Buffer.from(body).toString('utf8')),
  };
}

/**
 * The request and response pair of `request` for the node's handler (NodeHttpServer.answer), and
 * the reply, which settles when the handler answers: at once, or later for a deferred reply.
 * A malformed request (a bad method, target or field) throws the error a connection would
 * answer 400 with.
 */
export function inMemoryExchange(request: TestHttpRequest, rootHost: string): { req: WireRequest; res: WireResponse; reply: Promise<TestHttpReply> } {
  if (!request.path.startsWith('/')) throw new TsibaseError('TESTCHAIN_BAD_REQUEST', `a request path starts with '/', not '${request.path}'`);
  const body = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body ?? new Uint8Array(0);
  const head = parseRequestHead(requestHeadText(request, request.host ?? rootHost, body.length));
  let settle!: (reply: TestHttpReply) => void;
  const reply = new Promise<TestHttpReply>((resolve) => (settle = resolve));
  const sink: ReplySink = {
    destroyed: false,
    keepAlive: () => 0,
    answered: (response) => {
      settle(readReply(response.bytes!));
      response.finished();
    },
  };
  const req = new WireRequest(head, body, IN_PROCESS);
  return { req, res: new WireResponse(sink, head.method === 'HEAD', true), reply };
}
