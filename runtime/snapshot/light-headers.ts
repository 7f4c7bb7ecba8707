// Which block headers a snapshot carries (docs/p2p.md §7.3, §7.4; psibase's create-snapshot
// write_consensus_change_blocks): for each finished producer change up to the snapshot block the
// headers of the blocks that started it, that its end named irreversible and that ended it; when the
// snapshot is inside joint consensus, every block from the pending change on. The ending blocks
// (and each block of a joint tail) also carry their signatures and aux data, which prove the change.
// This node adds the snapshot block itself: a loaded node keeps it as its head block.

import { DbId } from '../../host-api/abi/databases.js';
import { blockDataKey, blockKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { Block, type SignedBlock } from '../../host-api/types/index.js';
import { BlockDataRow, type ConsensusChangeRow, type StatusRow } from '../../host-api/types/native.js';
import { readStoredBlock } from '../chain/stored-block.js';
import type { KvReader } from '../db/store.js';
import { SnapshotError } from './snapshot-error.js';
import type { FileRow } from './snapshot-file.js';

const EMPTY = new Uint8Array(0);

export interface LightHeaders {
  /** The blocks whose headers go in, ascending, without repeats. */
  readonly headers: number[];
  /** The blocks whose signature and aux data go in, ascending, without repeats. */
  readonly proven: number[];
}

/** The headers for a snapshot of `status`'s head block, from the changes recorded up to it. */
export function lightHeaders(changes: readonly ConsensusChangeRow[], status: StatusRow): LightHeaders {
  const head = status.head!.header.blockNum;
  const headers: number[] = [];
  const proven: number[] = [];
  const add = (list: number[], num: number) => {
    if (num <= head && num > (list[list.length - 1] ?? 0)) list.push(num);
  };
  const addTail = (from: number) => {
    for (let num = from; num <= head; num++) {
      add(headers, num);
      add(proven, num);
    }
  };
  for (const change of changes) {
    if (change.start > head) break;
    if (change.end <= head) {
      add(headers, change.start);
      add(headers, change.commit);
      add(headers, change.end);
      add(proven, change.end);
    } else {
      addTail(change.start);
    }
  }
  if (status.consensus.next) addTail(status.consensus.next.blockNum);
  add(headers, head);
  add(proven, head);
  return { headers, proven };
}

/**
 * The selected blocks from the log as headers (transactions stripped); the proven ones with
 * their signatures and aux data. Throws SNAPSHOT_HEADERS when the log lacks one.
 */
export function lightHeaderBlocks(store: KvReader, selection: LightHeaders): SignedBlock[] {
  const proven = new Set(selection.proven);
  return selection.headers.map((num) => {
    const stored = readStoredBlock(store, num);
    if (!stored) throw new SnapshotError('SNAPSHOT_HEADERS', `block ${num}, needed for the snapshot's consensus-change headers, is not in the block log`);
    const { block, signature, auxConsensusData } = stored.signed;
    const header = { header: block.header, transactions: [] };
    return proven.has(num) ? { block: header, signature, auxConsensusData } : { block: header, signature: EMPTY, auxConsensusData: null };
  });
}

/** A header's rows as a snapshot holds them: block log, its signature if any, its aux data if any. */
export function headerRows(signed: SignedBlock): FileRow[] {
  const { header } = signed.block;
  const key = blockKey(header.blockNum);
  const rows: FileRow[] = [{ db: DbId.blockLog, key, value: Block.pack(signed.block) }];
  if (signed.signature.length > 0) rows.push({ db: DbId.blockProof, key, value: signed.signature });
  if (signed.auxConsensusData !== null) {
    const blockId = computeBlockId(header);
    rows.push({ db: DbId.nativeSubjective, key: blockDataKey(blockId), value: BlockDataRow.pack({ blockId, auxConsensusData: signed.auxConsensusData }) });
  }
  return rows;
}
