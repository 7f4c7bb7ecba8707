import { DbId } from '../../host-api/abi/databases.js';
import { blockKey } from '../../host-api/abi/keys.js';
import { Block } from '../../host-api/types/index.js';
import type { KvReader, KvWriter } from '../db/store.js';

// The block log (docs/chain.md §1.4): db 3, key = block number (u32 big-endian), value = packed Block.

export function writeBlock(db: KvWriter, block: Block): void {
  db.put(DbId.blockLog, blockKey(block.header.blockNum), Block.pack(block));
}

export function readBlock(db: KvReader, blockNum: number): Block | undefined {
  const bytes = db.get(DbId.blockLog, blockKey(blockNum));
  return bytes ? Block.unpack(bytes) : undefined;
}
