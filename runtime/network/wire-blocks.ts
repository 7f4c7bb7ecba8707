import { blockId } from '../../host-api/chain/block-id.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import type { P2PMessage } from './messages/index.js';
import type { SyncHeader } from './sync/block-header.js';
import type { SyncMessage } from './sync/sync-messages.js';

// Between the wire (docs/p2p.md §2.2: ids as Checksum256 bytes, blocks as SignedBlock) and block
// sync (ids as hex, blocks as the caller's type: here the decoded SignedBlock).

const headers = new WeakMap<SignedBlock, SyncHeader>();

/** What sync reads of a block; its id is computed once per decoded block (docs/p2p.md §3.2). */
export function syncHeaderOf(signed: SignedBlock): SyncHeader {
  let header = headers.get(signed);
  if (!header) {
    const h = signed.block.header;
    header = { id: bytesToHex(blockId(h)), num: h.blockNum, previous: bytesToHex(h.previous), term: h.term, commitNum: h.commitNum };
    headers.set(signed, header);
  }
  return header;
}

/** A sync message as it goes on the wire. */
export function wireMessageOf(message: SyncMessage<SignedBlock>): P2PMessage {
  if (message.kind === 'BlockMessage') return { kind: 'BlockMessage', body: { block: message.body.block } };
  const { xid, committed } = message.body;
  return { kind: 'HelloRequest', body: { xid: { id: hexToBytes(xid.id), num: xid.num }, committed } };
}

/** The sync message a wire message is, or undefined for the other kinds. */
export function syncMessageOf(message: P2PMessage): SyncMessage<SignedBlock> | undefined {
  if (message.kind === 'BlockMessage') return { kind: 'BlockMessage', body: { block: message.body.block } };
  if (message.kind !== 'HelloRequest') return undefined;
  const { xid, committed } = message.body;
  return { kind: 'HelloRequest', body: { xid: { id: bytesToHex(xid.id), num: xid.num }, committed } };
}
