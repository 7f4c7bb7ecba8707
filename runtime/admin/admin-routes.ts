import { escapeHtml, methodNotAllowed, text } from '../http/replies.js';
import { ConfigError } from '../config/errors.js';
import type { Routes } from '../http/routes.js';
import type { WireRequest, WireResponse } from '../http/wire/index.js';
import { KeysError, keysErrorHttpStatus } from '../keys/errors.js';
import { LinkError } from '../network/links/link-error.js';
import { AdminError } from './admin-error.js';

/** One admin endpoint: the methods it takes (as an Allow header lists them) and its handler. */
export interface AdminEndpoint {
  readonly allow: string;
  handle(req: WireRequest, res: WireResponse): Promise<void> | void;
}

/** An error that carries the HTTP status it should be answered with. */
function statusOf(err: unknown): number | undefined {
  if (err instanceof AdminError) return err.status;
  if (err instanceof ConfigError || err instanceof LinkError) return 400;
  if (err instanceof KeysError) return keysErrorHttpStatus(err.code);
  return undefined;
}

/**
 * A set of admin endpoints by path. A wrong method is a 405 (docs/http.md §3: `/native/admin/…`
 * replies name the allowed methods; x-admin's `/config` and `/shutdown` give the bare message
 * and a newline); refusals the handlers raise become their status with the message as text.
 */
export class AdminRoutes implements Routes {
  constructor(
    private readonly endpoints: ReadonlyMap<string, AdminEndpoint>,
    private readonly style: 'native' | 'x-admin',
  ) {}

  /** Answers the request; false when no endpoint has this path. */
  async serve(req: WireRequest, res: WireResponse, target: string, path: string): Promise<boolean> {
    const endpoint = this.endpoints.get(path);
    if (!endpoint) return false;
    const method = req.method;
    if (!endpoint.allow.split(', ').includes(method)) {
      if (this.style === 'native') methodNotAllowed(res, target, method, endpoint.allow);
      else text(res, 405, `The resource '${escapeHtml(target)}' does not accept the method ${escapeHtml(method)}.\n`);
      return true;
    }
    try {
      await endpoint.handle(req, res);
    } catch (err) {
      const status = statusOf(err);
      if (status === undefined) throw err;
      if (!res.answered) text(res, status, (err as Error).message);
    }
    return true;
  }
}
