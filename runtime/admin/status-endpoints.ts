import { json, reply } from '../http/replies.js';
import type { AdminEndpoint } from './admin-routes.js';
import { optionalBoolean, readJsonObject } from './json-body.js';
import type { NodeControl } from './node-control.js';

/**
 * GET /native/admin/status: the node's status values (docs/http.md §7), psibase's array;
 * `?sync` answers `{status, sync}` with the block sync's figures (runtime/network/sync-progress.ts).
 */
export function statusEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'GET',
    handle: (req, res) => {
      const withSync = new URL(req.url, 'http://host').searchParams.has('sync');
      json(res, 200, withSync ? { status: node.status(), sync: node.sync() } : node.status());
    },
  };
}

/**
 * POST /shutdown (x-admin): `{restart?, force?, soft?}`. The reply (200, empty) goes out before
 * the node closes its connections; with `force` there may be none (docs/administration.md §4.1 rule 1).
 */
export function shutdownEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'POST',
    async handle(req, res) {
      const body = await readJsonObject(req);
      const request = {
        restart: optionalBoolean(body, 'restart') ?? false,
        force: optionalBoolean(body, 'force') ?? false,
        soft: optionalBoolean(body, 'soft') ?? false,
      };
      if (request.force) return node.shutdown(request);
      res.onFinish(() => node.shutdown(request));
      reply(res, 200, undefined, '', { Connection: 'close' });
    },
  };
}
