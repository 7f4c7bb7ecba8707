import { LinkError } from './link-error.js';

// How a peer URL is dialled (docs/p2p.md §1.1, as psibase's x-peers `connect` reads it): a URL
// without '/' gets http:// in front; http and https name a TCP (or TLS) endpoint; anything else
// is the path of a unix socket. The request goes to `/p2p` with `Host: x-peers.<authority>`.

export const P2P_TARGET = '/p2p';
/** The Host of a unix-socket peer, which has no authority of its own (docs/p2p.md §1.1). */
const LOCAL_HOST = 'x-peers.psibase.localhost';

export interface PeerAddress {
  /** The URL as configured or asked for: the key of autoconnect and de-duplication. */
  readonly url: string;
  /** What the websocket client dials (`ws+unix:` for a unix socket). */
  readonly dial: string;
  /** The Host header of the upgrade request. */
  readonly host: string;
  /** `host:port` of the remote, or the socket path. */
  readonly endpoint: string;
  /** The host names the remote is known by (the URL's host; none for a unix socket). */
  readonly hosts: readonly string[];
  readonly secure: boolean;
  readonly local: boolean;
}

export function peerAddress(url: string): PeerAddress {
  const given = url.includes('/') ? url : `http://${url}`;
  if (!/^https?:\/\//i.test(given)) {
    return { url, dial: `ws+unix:${given}:${P2P_TARGET}`, host: LOCAL_HOST, endpoint: given, hosts: [], secure: false, local: true };
  }
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new LinkError('P2P_BAD_URL', `'${url}' is not a peer URL (http://host:port, https://host:port or a unix socket path)`);
  }
  if (parsed.hostname === '') throw new LinkError('P2P_BAD_URL', `'${url}' names no host`);
  const secure = parsed.protocol === 'https:';
  const port = parsed.port || (secure ? '443' : '80');
  return {
    url,
    dial: `${secure ? 'wss' : 'ws'}://${parsed.host}${P2P_TARGET}`,
    host: `x-peers.${parsed.host}`,
    endpoint: `${parsed.hostname}:${port}`,
    hosts: [parsed.hostname.toLowerCase()],
    secure,
    local: false,
  };
}
