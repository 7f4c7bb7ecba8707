import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { text } from './replies.js';
import type { WireRequest, WireResponse } from './wire/index.js';

// http.md §4 rule 1: the admin API is open to the machine itself (loopback peers, unix sockets,
// or prefixes in PSIBASE_ADMIN_IP) when every forwarded-for address passes the same test.

/** An address without the IPv4-mapped IPv6 prefix. */
function unmapped(address: string): string {
  return address.replace(/^::ffff:/, '');
}

/** `address` (unmapped) is the machine itself, or in one of the allowed prefixes. */
function passes(address: string, prefixes: readonly string[]): boolean {
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.')) || prefixes.some((p) => address.startsWith(p));
}

function forwardedAddresses(req: WireRequest): string[] | undefined {
  const out: string[] = [];
  const xff = req.headers['x-forwarded-for'];
  if (xff) out.push(...(Array.isArray(xff) ? xff.join(',') : xff).split(',').map((s) => unmapped(s.trim())));
  const forwarded = req.headers.forwarded;
  if (forwarded) {
    for (const m of forwarded.matchAll(/for=("?)(\[?[^\]";,]+\]?)(?::\d+)?\1/gi)) out.push(unmapped(m[2]!.replace(/^\[|\]$/g, '')));
  }
  for (const a of out) if (isIP(a) === 0) return undefined; // unparsable fails
  return out;
}

export function isAdminRequest(req: WireRequest, env: NodeJS.ProcessEnv = process.env): boolean {
  const prefixes = (env.PSIBASE_ADMIN_IP ?? '').split(',').map((s) => s.trim()).filter((p) => p !== '');
  const peer = req.socket.remoteAddress;
  // A unix socket has no remote address.
  if (peer !== undefined && !passes(unmapped(peer), prefixes)) return false;
  const forwarded = forwardedAddresses(req);
  return forwarded !== undefined && forwarded.every((a) => passes(a, prefixes));
}

/**
 * A browser request from another site (http.md §3, §8): push_boot and the log socket take an
 * `Origin` only when it is the node's own, `<scheme>://<Host>` of this very connection.
 */
export function hasForeignOrigin(req: WireRequest): boolean {
  const origin = req.headers.origin;
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return origin !== undefined && origin !== `${scheme}://${req.headers.host}`;
}

/**
 * The refusal of a request that is not an admin's (http.md §4 rule 4). Without admin accounts or
 * a password file there is no way to authenticate, so no challenge is offered.
 */
export function refuseAdmin(res: WireResponse): void {
  text(res, 401, 'Not authorized');
}
