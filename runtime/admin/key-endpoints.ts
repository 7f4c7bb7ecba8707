import { json, reply } from '../http/replies.js';
import type { NodeKeys } from '../keys/node-keys.js';
import type { AdminEndpoint } from './admin-routes.js';
import { readJson } from './json-body.js';

// Keys held by the node and its PKCS#11 devices (docs/administration.md §4.1 rule 4). The key module checks
// the request bodies; refusals come back as KeysErrors with their HTTP status. `keysChanged` hears
// of a key added or a device unlocked: what the node could not sign before may be signable now.

export function keyEndpoints(keys: NodeKeys, keysChanged: () => void): Record<string, AdminEndpoint> {
  return {
    '/native/admin/keys': {
      allow: 'GET, POST',
      async handle(req, res) {
        if (req.method === 'GET') return json(res, 200, keys.list());
        const key = keys.add(await readJson(req));
        keysChanged();
        json(res, 200, key);
      },
    },
    '/native/admin/keys/devices': { allow: 'GET', handle: (_req, res) => json(res, 200, keys.devices()) },
    '/native/admin/keys/unlock': {
      allow: 'POST',
      async handle(req, res) {
        keys.unlock(await readJson(req));
        keysChanged();
        reply(res, 200, undefined, '');
      },
    },
    '/native/admin/keys/lock': {
      allow: 'POST',
      async handle(req, res) {
        keys.lock(await readJson(req));
        reply(res, 200, undefined, '');
      },
    },
  };
}
