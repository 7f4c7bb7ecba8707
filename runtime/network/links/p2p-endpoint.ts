import { hostName } from '../../http/host-resolution.js';
import type { ReplyHeaders, WireRequest } from '../../http/wire/index.js';
import { P2P_TARGET } from './peer-url.js';

// The websocket endpoint peers link to (docs/p2p.md "What we build" item 1, §1.1):
// `/native/p2p` on any host, and `/p2p` on `x-peers.<host>`, which psibase nodes dial.

const NATIVE_P2P_PATH = '/native/p2p';

/** Whether a request (Host header and path) is for the p2p endpoint. */
export function isP2PEndpoint(hostHeader: string, path: string): boolean {
  return path === NATIVE_P2P_PATH || (path === P2P_TARGET && hostName(hostHeader).startsWith('x-peers.'));
}

export interface Refusal {
  readonly status: number;
  readonly body: string;
  readonly headers: ReplyHeaders;
}

const HTML = { 'Content-Type': 'text/html' };

function isHandshake(req: WireRequest): boolean {
  const { upgrade, connection } = req.headers;
  const key = req.headers['sec-websocket-key'];
  return req.method === 'GET'
    && typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket'
    && typeof connection === 'string' && connection.split(',').some((t) => t.trim().toLowerCase() === 'upgrade')
    && typeof key === 'string' && /^[A-Za-z0-9+/]{22}==$/.test(key)
    && req.headers['sec-websocket-version'] === '13';
}

/** An Origin that is not one of the node's hosts or a subdomain of one (docs/p2p.md §1.1 step 3). */
function hasForeignOrigin(req: WireRequest, hosts: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  let name: string;
  try {
    name = new URL(origin).hostname.toLowerCase();
  } catch {
    return true;
  }
  return !hosts.some((h) => name === h.toLowerCase() || name.endsWith(`.${h.toLowerCase()}`));
}

/** The refusal of a link past `max_peers` (docs/administration.md §2): 503, to try again later. */
export function fullRefusal(maxPeers: number): Refusal {
  return { status: 503, body: `This node has as many peer links as it takes (max_peers ${maxPeers}); try again later`, headers: { ...HTML, 'Retry-After': '30' } };
}

/** The refusal of a link from a banned peer (links/peer-conduct.ts): 403 until the ban ends at `until` (ms since the epoch). */
export function bannedRefusal(address: string, until: number): Refusal {
  return {
    status: 403,
    body: `Not authorized: ${address} is banned until ${new Date(until).toISOString()} for sending messages this node refused`,
    headers: { ...HTML, 'Retry-After': String(Math.max(1, Math.ceil((until - Date.now()) / 1000))) },
  };
}

/** What a node whose links are off answers, and what its operator can do. */
const P2P_OFF = 'Not authorized: this node does not accept peer-to-peer links (its configuration has p2p off; start it with --p2p or set p2p in its config)';

/** The refusal of a request that is no websocket handshake: 403 while links are off, else 426. */
export function plainRequestRefusal(p2p: boolean): Refusal {
  if (!p2p) return { status: 403, body: P2P_OFF, headers: HTML };
  return { status: 426, body: '/p2p is a websocket endpoint', headers: { ...HTML, Upgrade: 'websocket' } };
}

/**
 * Why a request for the endpoint is refused, in psibase's order (docs/p2p.md §1.1): links off
 * (403), not a websocket handshake (426), a foreign Origin (400); undefined to accept it.
 */
export function p2pRefusal(req: WireRequest, p2p: boolean, hosts: readonly string[]): Refusal | undefined {
  if (!p2p || !isHandshake(req)) return plainRequestRefusal(p2p);
  if (hasForeignOrigin(req, hosts)) return { status: 400, body: 'Cross-origin request refused', headers: HTML };
  return undefined;
}

/** The longest part of a refusal's body that a dialler's log line quotes. */
export const QUOTED_REFUSAL_BYTES = 512;

/**
 * Why the node at a dialled URL refused the link, from its reply (status and the start of the
 * body): the line the dialler logs. A 403 that is not a ban is a node with links off, ours or
 * psibase's (docs/p2p.md §1.1), which its operator turns on.
 */
export function dialRefusalReason(status: number, body: string): string {
  const said = body.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
  if (status === 403 && !said.includes('banned')) return 'peer does not accept p2p links: start it with --p2p or set p2p in its config';
  return `peer refused the link with ${status}${said ? `: ${said}` : ''}`;
}
