import { json, reply } from '../http/replies.js';
import { AdminError } from './admin-error.js';
import type { AdminEndpoint } from './admin-routes.js';
import { readJsonObject } from './json-body.js';
import type { NodeControl } from './node-control.js';

// Peers (docs/administration.md §2 Peer, §4.1 rules 2-3): the live peer links, dialling a URL,
// closing a link.

export function peersEndpoint(node: NodeControl): AdminEndpoint {
  return { allow: 'GET', handle: (_req, res) => json(res, 200, node.peers()) };
}

/** Answers once the dial has begun: the link shows in `peers` when it is up. */
export function connectEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'POST',
    async handle(req, res) {
      const body = await readJsonObject(req);
      if (typeof body.url !== 'string' || body.url === '') throw new AdminError('ADMIN_BAD_REQUEST', "'url' must be a non-empty string");
      node.connect(body.url);
      reply(res, 200, undefined, '');
    },
  };
}

export function disconnectEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'POST',
    async handle(req, res) {
      const body = await readJsonObject(req);
      if (typeof body.id !== 'number' || !Number.isInteger(body.id)) throw new AdminError('ADMIN_BAD_REQUEST', "'id' must be a whole number");
      if (!node.disconnect(body.id)) throw new AdminError('ADMIN_NOT_FOUND', `no peer link has id ${body.id}`);
      reply(res, 200, undefined, '');
    },
  };
}
