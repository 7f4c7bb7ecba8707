import { TsibaseError } from '../../host-api/errors.js';
import { dialRefusalReason } from '../network/links/p2p-endpoint.js';
import { peerAddress } from '../network/links/peer-url.js';
import { httpRequest } from './client.js';

// `tsibase node --join <url>` asks the node at <url> before anything starts whether it takes
// peer links (a plain request for its p2p endpoint: 426 when it does, docs/p2p.md §1.1), so a
// wrong URL or a node without --p2p is said at once rather than in a redial every 30 s.

export async function checkJoinable(url: string): Promise<void> {
  const address = peerAddress(url);
  if (address.local) return;
  const endpoint = `${address.secure ? 'https' : 'http'}://${address.endpoint}/native/p2p`;
  const r = await httpRequest(endpoint).catch((err: Error) => {
    throw new TsibaseError('CLI_JOIN_UNREACHABLE', `--join ${url}: ${err.message}: is the node running, and is this its URL?`);
  });
  if (r.status === 426) return;
  throw new TsibaseError('CLI_JOIN_REFUSED', `--join ${url}: ${dialRefusalReason(r.status, r.text())}`);
}
