import { accountNumberFromName } from '../../host-api/names/index.js';
import type { HttpRequest } from '../../host-api/types/index.js';
import type { ChainQueries } from '../chain/interface.js';
import { hostName } from './host-resolution.js';
import { CORS_B, methodNotAllowed } from './replies.js';
import { sessionToken, withoutSession } from './session.js';
import type { SessionTokens } from './session-tokens.js';
import type { HttpSockets } from './sockets.js';
import type { WireRequest, WireResponse } from './wire/index.js';

/** Methods services receive (docs/http.md §1); others are refused by the node. */
const SERVICE_METHODS = new Set(['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Headers that never reach wasm (docs/http.md §1). */
const HIDDEN_HEADERS = new Set(['proxy-authorization', 'sec-websocket-extensions']);

/** The request as services see it: hidden headers, `Authorization` and the session cookie dropped. */
function serviceRequest(req: WireRequest, host: string): HttpRequest {
  const headers: { name: string; value: string }[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (HIDDEN_HEADERS.has(name.toLowerCase())) continue;
    const value = withoutSession(name, req.rawHeaders[i + 1]!);
    if (value !== undefined) headers.push({ name, value });
  }
  return {
    host,
    // A HEAD is served as the GET it asks about: the connection sends that reply's head and
    // Content-Length without its body (RFC 9110 §9.3.2), so services never see HEAD.
    method: req.method === 'HEAD' ? 'GET' : req.method,
    target: req.url,
    contentType: req.headers['content-type'] ?? '',
    headers,
    body: req.body,
  };
}

/**
 * Hands a request for the root domain or a service subdomain to the http service's `serve`
 * export in RPC mode (docs/serving.md §1), with the user its login token names. The service answers on
 * the request's socket, now or later (deferred): the replies come back with the context's result
 * and are written here. An abort answers 500 with its message, unless a reply was sent or deferred.
 */
export function serveThroughHttpService(
  chain: ChainQueries, sockets: HttpSockets, tokens: SessionTokens, req: WireRequest, res: WireResponse, rootHost: string,
): Promise<void> | void {
  const target = req.url;
  const method = req.method;
  if (!SERVICE_METHODS.has(method)) return methodNotAllowed(res, target, method, 'GET, POST, OPTIONS', CORS_B);
  const host = hostName(req.headers.host ?? '');
  const token = sessionToken(req);
  const user = token === undefined ? undefined : tokens.userOf(token, rootHost, Math.floor(Date.now() / 1000));
  const request = serviceRequest(req, host);
  const socket = sockets.add(res);
  return chain.serve({
    socket, request, rootHost, user: user === undefined ? null : accountNumberFromName(user), sockets: { open: sockets, owned: [socket] },
  }).then(({ error, sockets: outcome }) => {
    sockets.settle(outcome, error?.message);
    sockets.watch(socket);
  });
}
