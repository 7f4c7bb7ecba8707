// Requests to a test node by Host header (docs/http.md §1-4): to any host it may serve, and to its
// x-admin host (the admin API and the node's own app).
import { httpRequest, type HttpReply } from '../../runtime/cli/client.js';
import type { RunningNode } from './node-process.js';

export const X_ADMIN = 'x-admin.tsibase.localhost';

export interface AdminRequestInit {
  readonly method?: string;
  /** A JSON body (sent as application/json unless `type` says otherwise). */
  readonly json?: unknown;
  /** A body as text. */
  readonly body?: string;
  readonly type?: string;
  readonly headers?: Record<string, string>;
}

/**
 * `path` on the node's loopback address with `host` (and the node's port) as the Host header;
 * a body makes the method POST unless `method` is given.
 */
export function hostRequest(node: RunningNode, host: string, path: string, init: AdminRequestInit = {}): Promise<HttpReply> {
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const headers: Record<string, string> = { ...init.headers, host: `${host}:${node.port}` };
  if (body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  return httpRequest(`http://127.0.0.1:${node.port}${path}`, {
    method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(body !== undefined ? { body: new TextEncoder().encode(body) } : {}),
  });
}

/** `path` on the node's x-admin host. */
export function adminRequest(node: RunningNode, path: string, init: AdminRequestInit = {}): Promise<HttpReply> {
  return hostRequest(node, X_ADMIN, path, init);
}
