import { echoCors } from './replies.js';
import type { ReplyHeaders, WireRequest } from './wire/index.js';

// CORS for `/native/admin/*`. Admins are recognised by address, and a browser on the admin's
// machine is such an address whatever page it shows: granting every origin would let any web
// site the operator visits drive the admin API. So preflights and replies grant the node's own
// admin app only, `x-admin.<root>` on any scheme and port (one node's app administering another).

/** Echo CORS for a request from an admin app's origin; undefined for any other origin. */
export function adminAppCors(req: WireRequest, hosts: readonly string[]): ReplyHeaders | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const isAdminApp = (url.protocol === 'http:' || url.protocol === 'https:') && hosts.some((root) => url.hostname === `x-admin.${root}`);
  return isAdminApp ? echoCors(origin) : undefined;
}
