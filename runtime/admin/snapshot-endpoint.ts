import { TsibaseError } from '../../host-api/errors.js';
import { reply } from '../http/replies.js';
import type { AdminEndpoint } from './admin-routes.js';
import { AdminError } from './admin-error.js';

/**
 * GET /native/admin/snapshot (docs/administration.md §4.1): the node's newest snapshot whose
 * state enough producers signed, as the file create-snapshot writes; `tsibase dev --fork <url>`
 * starts from it. 404 when the node has none (snapshots are scheduled with transact::setSnapTime).
 */
export function snapshotEndpoint(snapshotFile: () => Uint8Array): Record<string, AdminEndpoint> {
  return {
    '/native/admin/snapshot': {
      allow: 'GET',
      handle: (_req, res) => {
        let file: Uint8Array;
        try {
          file = snapshotFile();
        } catch (err) {
          if (err instanceof TsibaseError && err.code === 'SNAPSHOT_NONE') throw new AdminError('ADMIN_NOT_FOUND', err.message);
          throw err;
        }
        reply(res, 200, 'application/octet-stream', file);
      },
    },
  };
}
