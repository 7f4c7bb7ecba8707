import type { LinkMessage } from './link-messages.js';

// De-duplication (docs/p2p.md §1.4, psibase's x-peers `getDuplicates` and the
// DuplicateConnectionMessage handler). A remote node is (host, nodeId). When a node holds an
// incoming and an outgoing link to the same one, it tells the remote, over the incoming link,
// which of the remote's links is the duplicate; the remote closes its own outgoing link if the
// other is more secure, or both are equally secure and its peer's nodeId is the smaller.

/** What de-duplication knows of a link. */
export interface LinkIdentity {
  readonly id: number;
  readonly outgoing: boolean;
  readonly secure: boolean;
  /** The remote's id of this link, from its IdMessage; -1 until then. */
  readonly peerLinkId: number;
  /** The remote's node id, from its IdMessage. */
  readonly nodeId: bigint | undefined;
  /** The remote's host names: the URL's host for an outgoing TCP link, else its HostnamesMessage. */
  readonly hosts: readonly string[];
}

function sameNode(a: LinkIdentity, b: LinkIdentity): boolean {
  return a.nodeId !== undefined && a.nodeId === b.nodeId && a.hosts.some((h) => b.hosts.includes(h));
}

/** The DuplicateConnectionMessages to send now that `link`'s identity is known or changed: [link id to send on, message]. */
export function duplicateNotices(link: LinkIdentity, all: Iterable<LinkIdentity>): Array<[number, LinkMessage]> {
  const notices: Array<[number, LinkMessage]> = [];
  for (const other of all) {
    if (other.outgoing === link.outgoing || !sameNode(link, other)) continue;
    const [incoming, outgoing] = link.outgoing ? [other, link] : [link, other];
    notices.push([incoming.id, { kind: 'duplicateConnection', connectionId: outgoing.peerLinkId, secure: outgoing.secure }]);
  }
  return notices;
}

/**
 * Whether the outgoing link `out`, on which a DuplicateConnectionMessage arrived naming our
 * incoming link `incoming` (secure or not as the message says), is the one to close.
 */
export function outgoingYields(out: LinkIdentity, incoming: LinkIdentity, secure: boolean, myNodeId: bigint): boolean {
  if (!out.outgoing || incoming.outgoing || !sameNode(out, incoming)) return false;
  return (secure && !out.secure) || (secure === out.secure && out.nodeId! < myNodeId);
}
