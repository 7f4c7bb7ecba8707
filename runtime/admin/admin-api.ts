import { pushBoot } from '../http/push-boot.js';
import { STATUS_PATH } from '../http/routes.js';
import { AdminRoutes, type AdminEndpoint } from './admin-routes.js';
import { configEndpoint } from './config-endpoint.js';
import type { NodeControl } from './node-control.js';
import { connectEndpoint, disconnectEndpoint, peersEndpoint } from './peer-endpoints.js';
import { shutdownEndpoint, statusEndpoint } from './status-endpoints.js';

/** The admin API of docs/administration.md §4.1: `/native/admin/…` on every host, `/config` and `/shutdown` on x-admin. */
export function adminApi(node: NodeControl, extra: Readonly<Record<string, AdminEndpoint>> = {}): { native: AdminRoutes; xAdmin: AdminRoutes } {
  const native = new Map<string, AdminEndpoint>([
    [STATUS_PATH, statusEndpoint(node)],
    ['/native/admin/peers', peersEndpoint(node)],
    ['/native/admin/connect', connectEndpoint(node)],
    ['/native/admin/disconnect', disconnectEndpoint(node)],
    ['/native/admin/push_boot', { allow: 'POST', handle: (req, res) => pushBoot(node.chain, req, res) }],
    ...Object.entries(extra),
  ]);
  const xAdmin = new Map<string, AdminEndpoint>([
    ['/config', configEndpoint(node)],
    ['/shutdown', shutdownEndpoint(node)],
  ]);
  return { native: new AdminRoutes(native, 'native'), xAdmin: new AdminRoutes(xAdmin, 'x-admin') };
}
