import { sha256 } from '@noble/hashes/sha2.js';
import { BlockHeader } from '../types/index.js';

/**
 * docs/chain.md §1.2: sha256 of the packed header without its authCode, with the first four bytes
 * replaced by the block number (big-endian), so ids sort and name their block.
 */
export function blockId(header: BlockHeader): Uint8Array {
  const id = sha256(BlockHeader.pack({ ...header, authCode: null }));
  new DataView(id.buffer, id.byteOffset, 4).setUint32(0, header.blockNum, false);
  return id;
}

/** The block number an id carries. */
export function blockNumOfId(id: Uint8Array): number {
  return new DataView(id.buffer, id.byteOffset, 4).getUint32(0, false);
}

/** The last four bytes of a block id as a little-endian u32 (the TaPoS suffix). */
export function blockSuffix(id: Uint8Array): number {
  return new DataView(id.buffer, id.byteOffset + id.length - 4, 4).getUint32(0, true);
}
