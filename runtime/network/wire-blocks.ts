import { blockId } from '../../host-api/chain/block-id.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import type { BlockHeader, SignedBlock } from '../../host-api/types/index.js';
import type { StoredBlock } from '../chain/stored-block.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { encodeMessage, messageType, p2pSchema, type P2PMessage } from './messages/index.js';
import type { SyncHeader } from './sync/block-header.js';
import type { SyncMessage } from './sync/sync-messages.js';

// Between the wire (docs/p2p.md §2.2: ids as Checksum256 bytes, blocks as SignedBlock) and block
// sync (ids as hex, blocks as the caller's type: here the decoded SignedBlock).

const headers = new WeakMap<SignedBlock, SyncHeader>();
/**
 * The BlockMessage frame of a block: the one it came in (streamed on to other peers as it came,
 * not encoded again), or the one encoded once for every link it is streamed to.
 */
const blockFrames = new WeakMap<SignedBlock, Uint8Array>();

const BLOCK_MESSAGE = messageType('BlockMessage');
/**
 * A BlockMessage read as far as its block's header: the transactions, signature and aux data are
 * skipped as unknown fields are (docs/p2p.md §2.2), so a block already held is not decoded again.
 */
const BlockMessageHeader = p2pSchema.typeOf({ Object: { block: { FracPack: { Object: { block: { Object: { header: 'BlockHeader' } } } } } } });

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

/** A block arrived in `frame` (a BlockMessage): that frame is what it weighs, and what is sent on. */
export function noteFrame(signed: SignedBlock, frame: Uint8Array): void {
  blockFrames.set(signed, frame);
}

/** The bytes a block weighs on the wire: the frame it came in, or the one made to send it; 0 when neither is known. */
export function frameBytesOf(signed: SignedBlock): number {
  return blockFrames.get(signed)?.length ?? 0;
}

/**
 * The id of the block in a BlockMessage frame, read from its header alone; undefined for another
 * kind of frame, or one that cannot be read that far (decoding it whole then says why).
 */
export function frameBlockId(frame: Uint8Array): string | undefined {
  if (frame[0] !== BLOCK_MESSAGE) return undefined;
  let header: BlockHeader;
  try {
    header = (BlockMessageHeader.unpack(frame.subarray(1), { compat: true }) as { block: { block: { header: BlockHeader } } }).block.block.header;
  } catch (err) {
    if (err instanceof FracpackError) return undefined;
    throw err;
  }
  return bytesToHex(blockId(header));
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
