// A block as this node sends it to peers (docs/p2p.md §2.2 BlockMessage, §7.4 BlockHeaderMessage):
// from the block log, with its signature and aux consensus data.

import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import type { KvReader } from '../db/store.js';
import { readAuxConsensusData } from './block-aux-data.js';
import { readBlock } from './block-log.js';
import { readBlockSignature } from './block-signing.js';

/** A block as this node sends it to peers, with its id. */
export interface StoredBlock {
  readonly signed: SignedBlock;
  readonly blockId: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** Block `blockNum` from the log with its signature (empty when unsigned) and aux data, if the log has it. */
export function readStoredBlock(db: KvReader, blockNum: number): StoredBlock | undefined {
  const block = readBlock(db, blockNum);
  if (!block) return undefined;
  const blockId = computeBlockId(block.header);
  return { signed: { block, signature: readBlockSignature(db, blockNum) ?? EMPTY, auxConsensusData: readAuxConsensusData(db, blockId) }, blockId };
}
