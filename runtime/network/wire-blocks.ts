import { blockId } from '../../host-api/chain/block-id.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import type { StoredBlock } from '../chain/stored-block.js';
import { encodeMessage, type P2PMessage } from './messages/index.js';
import type { SyncHeader } from './sync/block-header.js';
import type { SyncMessage } from './sync/sync-messages.js';

// Between the wire (docs/p2p.md §2.2: ids as Checksum256 bytes, blocks as SignedBlock) and block
// sync (ids as hex, blocks as the caller's type: here the decoded SignedBlock).

const headers = new WeakMap<SignedBlock, SyncHeader>();
/** The BlockMessage frame of a block, encoded once for every link it is streamed to. */
const blockFrames = new WeakMap<SignedBlock, Uint8Array>();
/** The size of the frame a received block came in. */
const receivedBytes = new WeakMap<SignedBlock, number>();

function headerWithId(signed: SignedBlock, id: Uint8Array): SyncHeader {
  const h = signed.block.header;
  const header = { id: bytesToHex(id), num: h.blockNum, previous: bytesToHex(h.previous), term: h.term, commitNum: h.commitNum };
  headers.set(signed, header);
  return header;
}

/** What sync reads of a block; its id is computed once per decoded block (docs/p2p.md §3.2). */
export function syncHeaderOf(signed: SignedBlock): SyncHeader {
  return headers.get(signed) ?? headerWithId(signed, blockId(signed.block.header));
}

/** A block read from the chain, which computed its id: sync takes that id rather than computing it again. */
export function storedSignedBlock(stored: StoredBlock): SignedBlock {
  if (!headers.has(stored.signed)) headerWithId(stored.signed, stored.blockId);
  return stored.signed;
}

/** A block arrived in a frame of `bytes`. */
export function noteFrameBytes(signed: SignedBlock, bytes: number): void {
  receivedBytes.set(signed, bytes);
}

/** The bytes a block weighs on the wire: the frame it came in, or the one made to send it; 0 when neither is known. */
export function frameBytesOf(signed: SignedBlock): number {
  return receivedBytes.get(signed) ?? blockFrames.get(signed)?.length ?? 0;
}

/** The frame of a sync message as it goes on the wire. */
export function syncFrameOf(message: SyncMessage<SignedBlock>): Uint8Array {
  if (message.kind === 'HelloRequest') {
    const { xid, committed } = message.body;
    return encodeMessage({ kind: 'HelloRequest', body: { xid: { id: hexToBytes(xid.id), num: xid.num }, committed } });
  }
  const { block } = message.body;
  let frame = blockFrames.get(block);
  if (!frame) {
    frame = encodeMessage({ kind: 'BlockMessage', body: { block } });
    blockFrames.set(block, frame);
  }
  return frame;
}

/** The sync message a wire message is, or undefined for the other kinds. */
export function syncMessageOf(message: P2PMessage): SyncMessage<SignedBlock> | undefined {
  if (message.kind === 'BlockMessage') return { kind: 'BlockMessage', body: { block: message.body.block } };
  if (message.kind !== 'HelloRequest') return undefined;
  const { xid, committed } = message.body;
  return { kind: 'HelloRequest', body: { xid: { id: bytesToHex(xid.id), num: xid.num }, committed } };
}
