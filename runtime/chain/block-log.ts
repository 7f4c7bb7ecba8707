import { DbId } from '../../host-api/abi/databases.js';
import { blockKey, logTruncateKey } from '../../host-api/abi/keys.js';
import { Block, coreSchema, type BlockHeader } from '../../host-api/types/index.js';
import { LogTruncateRow } from '../../host-api/types/native.js';
import type { KvReader, KvWriter } from '../db/store.js';

// The block log (docs/chain.md §1.4): db 3, key = block number (u32 big-endian), value = packed Block.
// Where it starts, when it was cut at a loaded snapshot, is the LogTruncateRow (native-subjective
// table 13, docs/p2p.md §7.3).

export function writeBlock(db: KvWriter, block: Block): void {
  db.put(DbId.blockLog, blockKey(block.header.blockNum), Block.pack(block));
}

export function readBlock(db: KvReader, blockNum: number): Block | undefined {
  const bytes = db.get(DbId.blockLog, blockKey(blockNum));
  return bytes ? Block.unpack(bytes) : undefined;
}

/**
 * A Block read as far as its header: its other members are skipped as unknown fields are, so a
 * block's thousands of transactions are not decoded to learn its id.
 */
const BlockHeaderOnly = coreSchema.typeOf({ Object: { header: 'BlockHeader' } });

/** The header of block `blockNum` in the log, without decoding its transactions. */
export function readBlockHeader(db: KvReader, blockNum: number): BlockHeader | undefined {
  const bytes = db.get(DbId.blockLog, blockKey(blockNum));
  return bytes ? (BlockHeaderOnly.unpack(bytes, { compat: true }) as { header: BlockHeader }).header : undefined;
}

/** Where the block log starts, when it was cut at a loaded snapshot. */
export function readLogStart(db: KvReader): number | undefined {
  const row = db.get(DbId.nativeSubjective, logTruncateKey());
  return row && LogTruncateRow.unpack(row).start;
}

export function writeLogStart(db: KvWriter, start: number): void {
  db.put(DbId.nativeSubjective, logTruncateKey(), LogTruncateRow.pack({ start }));
}
