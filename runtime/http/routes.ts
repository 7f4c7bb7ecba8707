import type { WireRequest, WireResponse } from './wire/index.js';

/**
 * Endpoints by path that the server hands a request to (the `/native/admin/…` endpoints, a
 * node-local host's): it answers the request, or says it has nothing for that path. The admin
 * API (runtime/admin) is one; http takes this interface so that it does not depend on admin.
 */
export interface Routes {
  /** Answers the request; false when no endpoint has this path. */
  serve(req: WireRequest, res: WireResponse, target: string, path: string): Promise<boolean>;
}

/** The status endpoint: the one request the server answers while the node starts up (docs/http.md §7). */
export const STATUS_PATH = '/native/admin/status';
