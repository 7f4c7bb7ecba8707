import { json, reply } from '../http/replies.js';
import type { AdminEndpoint } from './admin-routes.js';
import { readJson } from './json-body.js';
import type { NodeControl } from './node-control.js';

/** GET /config answers the configuration; PUT /config replaces it (200, empty; 400 naming a bad field). */
export function configEndpoint(node: NodeControl): AdminEndpoint {
  return {
    allow: 'GET, PUT',
    async handle(req, res) {
      if (req.method === 'GET') return json(res, 200, node.config());
      await node.putConfig(await readJson(req));
      reply(res, 200, undefined, '');
    },
  };
}
