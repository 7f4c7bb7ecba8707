import type { Peer } from '../admin/node-control.js';

// Until the node has peer-to-peer links, `/native/admin/peers` reports the configured peers
// (config `peers`), numbered in configuration order, each with its `host:port`.

/** `host:port` of a peer URL or bare `host[:port]` (port 8080, psibase's default, when absent). */
function endpointOf(url: string): string {
  try {
    const parsed = new URL(url.includes('://') ? url : `http://${url}`);
    const defaultPort = parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? '443' : '8080';
    return `${parsed.hostname}:${parsed.port || defaultPort}`;
  } catch {
    return url;
  }
}

export function peersOf(urls: readonly string[]): Peer[] {
  return urls.map((url, i) => ({ id: i + 1, endpoint: endpointOf(url), url }));
}
