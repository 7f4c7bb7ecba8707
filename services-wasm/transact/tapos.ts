// TaPoS and expiration (docs/chain.md §2): the block summary that startBlock keeps and the checks a
// transaction's Tapos must pass against it and against the block being built.

import { TimePointSec, TimePointUSec, check } from "../sdk/index";
import { BlockInfo } from "../sdk/native/index";
import { blockTimeOf } from "./block-time";
import { DO_NOT_BROADCAST, Tapos } from "./transaction";
import { SingletonTable, BLOCK_SUMMARY_TABLE } from "./tables";

const SLOTS = 256;
const RECENT_MASK: u32 = 0x7f;
const MILESTONE_FLAG: u32 = 0x80;
/** Every 8192nd block is a milestone, addressable for about 12 days. */
const MILESTONE_SHIFT: u32 = 13;
const MAX_LIFETIME_SECONDS: TimePointSec = 3600;

/** Suffixes of the latest 128 blocks (slot blockNum & 0x7F) and 128 milestones (0x80 | ...). */
@fracpack
class BlockSummary {
  constructor(
    /** 256 slots; a List because the SDK has no fixed-size arrays. */
    public blockSuffixes: Array<u32> = new Array<u32>(SLOTS),
    /** The last block whose suffix was stored. */
    public blockNum: u32 = 0,
  ) {}
}

const summaryTable = new SingletonTable<BlockSummary>(BLOCK_SUMMARY_TABLE);

function summary(): BlockSummary {
  const row = summaryTable.get();
  return row !== null ? row : new BlockSummary();
}

/** A block's TaPoS index among the latest 128 blocks. */
export function recentIndexOf(blockNum: u32): u32 {
  return blockNum & RECENT_MASK;
}

/** A block's TaPoS suffix: the last 4 bytes of its id as a little-endian u32. */
export function suffixOf(block: BlockInfo): u32 {
  return load<u32>(block.blockId.bytes.dataStart + 28);
}

/** startBlock: records the head block's suffix in its recent slot, and milestone slot if any. */
export function recordHeadBlock(head: BlockInfo): void {
  const row = summary();
  const blockNum = head.header.blockNum;
  const suffix = suffixOf(head);
  row.blockSuffixes[recentIndexOf(blockNum)] = suffix;
  if ((blockNum & ((1 << MILESTONE_SHIFT) - 1)) == 0) row.blockSuffixes[<u8>((blockNum >> MILESTONE_SHIFT) | MILESTONE_FLAG)] = suffix;
  row.blockNum = blockNum;
  summaryTable.put(row);
}

/** Flags, commit rule and expiration window against the block being built. */
export function checkFlagsAndExpiration(tapos: Tapos, speculative: bool, now: TimePointUSec): void {
  check((tapos.flags & ~DO_NOT_BROADCAST) == 0, "unsupported flags on transaction");
  check(speculative || (tapos.flags & DO_NOT_BROADCAST) == 0, "cannot commit a do_not_broadcast transaction");
  const expiration = blockTimeOf(tapos.expiration);
  check(now < expiration, "transaction has expired");
  check(expiration < now + blockTimeOf(MAX_LIFETIME_SECONDS), "transaction was submitted too early");
}

/**
 * The referenced block must be one the summary addresses, with the matching suffix. Before a
 * head exists and while the boot list is active only the zero reference is accepted.
 */
export function checkReferencedBlock(tapos: Tapos, bootListActive: bool, head: BlockInfo | null): void {
  const index = <u32>tapos.refBlockIndex;
  if (head === null || bootListActive) {
    check(index == 0 && tapos.refBlockSuffix == 0, "transaction references non-existing block");
    return;
  }
  // Unsigned 32-bit arithmetic as psibase does it: the first blocks wrap to large limits.
  const headNum = head.header.blockNum;
  const limit = (index & MILESTONE_FLAG) != 0 ? (headNum >> MILESTONE_SHIFT) - 2 : headNum - 2;
  check(((index - 2) & RECENT_MASK) <= limit, "transaction references non-existing block");
  check(tapos.refBlockSuffix == summary().blockSuffixes[index], "transaction references non-existing block");
}

/** Whether a transaction that expires at `expiration` has expired at block time `now`. */
export function expiredAt(expiration: TimePointSec, now: TimePointUSec): bool {
  return blockTimeOf(expiration) <= now;
}
