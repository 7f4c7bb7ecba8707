import { blockSuffix } from './block-id.js';

// docs/formats.md §6 and docs/chain.md §2: a transaction references a recent block by index and suffix.

/** The TaPoS index of a block among the latest 128 (blockNum & 0x7F). */
export function recentBlockIndex(blockNum: number): number {
  return blockNum & 0x7f;
}

/** The TaPoS index of a block whose number is a multiple of 8192 ((blockNum >> 13) | 0x80). */
export function milestoneBlockIndex(blockNum: number): number {
  if (blockNum % 8192 !== 0) throw new RangeError(`block ${blockNum} is not a multiple of 8192`);
  return ((blockNum >>> 13) | 0x80) & 0xff;
}

/** Tapos flag: the transaction may be checked but must never be broadcast or executed (a login). */
export const DO_NOT_BROADCAST = 0x0001;

export interface TaposReference {
  refBlockIndex: number;
  refBlockSuffix: number;
}

/** The reference a transaction uses to name the block `blockId` (one of the latest 128). */
export function taposReference(blockNum: number, blockId: Uint8Array): TaposReference {
  return { refBlockIndex: recentBlockIndex(blockNum), refBlockSuffix: blockSuffix(blockId) };
}
