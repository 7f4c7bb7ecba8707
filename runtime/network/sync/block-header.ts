// What block sync needs to know of a block (docs/p2p.md §3.1, §3.2, §3.6): the caller derives it
// from a real SignedBlock or from a model block, so the same sync logic drives both.

/** A block id as 64 upper-case hex digits (bytesToHex); ids compare as bytes when compared as these strings. */
export type BlockIdHex = string;

/** psibase's ExtendedBlockId: an id and its block number. */
export interface BlockXid {
  readonly id: BlockIdHex;
  readonly num: number;
}

/** The header fields sync and fork choice read. */
export interface SyncHeader extends BlockXid {
  /** The parent's id. */
  readonly previous: BlockIdHex;
  readonly term: number;
  /** The producer's irreversible block number when it started this block. */
  readonly commitNum: number;
}

/** The state before genesis: id 0×32, number 1 (docs/p2p.md §3.2). */
export const PRE_GENESIS: SyncHeader = { id: '0'.repeat(64), num: 1, previous: '0'.repeat(64), term: 0, commitNum: 1 };

/** The block number in a block id's first four bytes, big-endian (§3.2). */
export function blockNumOf(id: BlockIdHex): number {
  return parseInt(id.slice(0, 8), 16);
}

export function xidOf(header: BlockXid): BlockXid {
  return { id: header.id, num: header.num };
}

/** The fields fork choice orders blocks by. */
export type BlockOrder = Pick<SyncHeader, 'term' | 'num' | 'id'>;

/** Fork choice order (docs/p2p.md §3.6): (term, blockNum, id), lexicographically. */
export function compareOrder(a: BlockOrder, b: BlockOrder): number {
  if (a.term !== b.term) return a.term - b.term;
  if (a.num !== b.num) return a.num - b.num;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
