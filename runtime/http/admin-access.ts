import { isIP } from 'node:net';
import { adminNetworksOf, type AdminNetworks } from './admin-networks.js';
import { text } from './replies.js';
import type { WireRequest, WireResponse } from './wire/index.js';

// docs/http.md §4 rule 1: the admin API is open to the machine itself (loopback peers, unix sockets)
// and to the addresses and ranges of PSIBASE_ADMIN_IP, when every forwarded-for address passes
// the same test.

/** The addresses of `Forwarded: for=` and `X-Forwarded-For`; undefined when one is not an IP address. */
function forwardedAddresses(req: WireRequest): string[] | undefined {
  const out: string[] = [];
  const xff = req.headers['x-forwarded-for'];
  if (xff) out.push(...(Array.isArray(xff) ? xff.join(',') : xff).split(',').map((s) => s.trim()));
  const forwarded = req.headers.forwarded;
  if (forwarded) {
    for (const m of forwarded.matchAll(/for=("?)(\[?[^\]";,]+\]?)(?::\d+)?\1/gi)) out.push(m[2]!.replace(/^\[|\]$/g, ''));
  }
  for (const a of out) if (isIP(a) === 0) return undefined; // unparsable fails
  return out;
}

export function isAdminRequest(req: WireRequest, networks: AdminNetworks = adminNetworksOf()): boolean {
  const peer = req.socket.remoteAddress;
  // A unix socket has no remote address.
  if (peer !== undefined && !networks.admits(peer)) return false;
  const forwarded = forwardedAddresses(req);
  return forwarded !== undefined && forwarded.every((a) => networks.admits(a));
}

/**
 * A browser request from another site (docs/http.md §3, §8): push_boot and the log socket take an
 * `Origin` only when it is the node's own, `<scheme>://<Host>` of this very connection.
 */
export function hasForeignOrigin(req: WireRequest): boolean {
  const origin = req.headers.origin;
  const scheme = req.socket.encrypted ? 'https' : 'http';
  return origin !== undefined && origin !== `${scheme}://${req.headers.host}`;
}

/**
 * The refusal of a request that is not an admin's (docs/http.md §4 rule 4). Without admin accounts or
 * a password file there is no way to authenticate, so no challenge is offered.
 */
export function refuseAdmin(res: WireResponse): void {
  text(res, 401, 'Not authorized');
}
