import { json } from '../http/replies.js';
import { AdminError } from './admin-error.js';
import type { AdminEndpoint } from './admin-routes.js';
import { readJsonObject } from './json-body.js';
import type { NodeControl } from './node-control.js';

// Peers (docs/administration.md §4.1 rules 2-3). This node has no peer-to-peer layer yet: `peers` lists the
// configured peers, and connect/disconnect are refused with a 501 that says so, after checking
// their bodies like any other request.

const NO_P2P = 'this node has no peer-to-peer networking yet; peers are kept in the configuration only';

export function peersEndpoint(node: NodeControl): AdminEndpoint {
  return { allow: 'GET', handle: (_req, res) => json(res, 200, node.peers()) };
}

export function connectEndpoint(): AdminEndpoint {
  return {
    allow: 'POST',
    async handle(req) {
      const body = await readJsonObject(req);
      if (typeof body.url !== 'string' || body.url === '') throw new AdminError('ADMIN_BAD_REQUEST', "'url' must be a non-empty string");
      throw new AdminError('ADMIN_UNAVAILABLE', `cannot connect to ${body.url}: ${NO_P2P}`);
    },
  };
}

export function disconnectEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'POST',
    async handle(req) {
      const body = await readJsonObject(req);
      if (typeof body.id !== 'number' || !Number.isInteger(body.id)) throw new AdminError('ADMIN_BAD_REQUEST', "'id' must be a whole number");
      if (!node.peers().some((p) => p.id === body.id)) throw new AdminError('ADMIN_NOT_FOUND', `no peer connection has id ${body.id}`);
      throw new AdminError('ADMIN_UNAVAILABLE', `cannot disconnect peer ${body.id}: ${NO_P2P}`);
    },
  };
}
