// The snapshots this node can hand out (docs/p2p.md §7.2-7.4): the newest kept state whose
// checksum enough producers of its own current set signed.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { DbId } from '../../host-api/abi/databases.js';
import { statusKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId, blockNumOfId } from '../../host-api/chain/block-id.js';
import { SnapshotRow, StatusRow, type StateChecksum, type StateSignature } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import type { KvReader } from '../db/store.js';
import type { KeptStates } from './kept-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodedRows, storeDbOf } from './snapshot-file.js';
import { SNAPSHOT_PREFIX, sameChecksum } from './snapshot-rows.js';
import { rowsOf } from '../db/prefix-rows.js';
import { StateMerkle } from './state-rows.js';
import { enoughSignatures } from './state-signatures.js';

export interface SignedState {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
  readonly rows: Uint8Array;
  readonly checksum: StateChecksum;
  readonly signatures: StateSignature[];
  /** The status row of that state. */
  readonly status: StatusRow;
}

/** Signatures to add to those a state has: create-snapshot's --sign keys. */
export type MoreSignatures = (status: StatusRow, checksum: StateChecksum) => StateSignature[];

/** The newest kept state with enough producer signatures (counting `more`), and its block in the log. */
export function newestSignedState(store: KvReader, kept: KeptStates, more: MoreSignatures = () => []): SignedState {
  // SnapshotRow keys hold the block id, which starts with the block number: key order is block order.
  const rows = [...rowsOf(store, DbId.nativeSubjective, SNAPSHOT_PREFIX)].reverse();
  for (const { value } of rows) {
    const row = SnapshotRow.unpack(value);
    if (!row.state) continue;
    const blockNum = blockNumOfId(row.id);
    const keptRows = kept.rows(blockNum, row.id);
    if (!keptRows) continue;
    const { status, checksum } = readKeptState(keptRows);
    if (!sameChecksum(checksum, row.state.state)) {
      throw new SnapshotError('SNAPSHOT_CHECKSUM', `the kept state of block ${blockNum} does not match its recorded checksum`);
    }
    const signatures = [...row.state.signatures, ...more(status, checksum)];
    if (!enoughSignatures(status.consensus.current, signatures)) continue;
    const block = readBlock(store, blockNum);
    if (!block || !equalBytes(computeBlockId(block.header), row.id)) continue;
    return { blockNum, blockId: row.id, rows: keptRows, checksum, signatures, status };
  }
  throw new SnapshotError('SNAPSHOT_NONE', 'no verified snapshot available: no kept snapshot state has enough producer signatures (schedule snapshots with transact::setSnapTime)');
}

/** A kept state's status row and checksum, in one pass over its rows. */
function readKeptState(rows: Uint8Array): { status: StatusRow; checksum: StateChecksum } {
  const key = statusKey();
  const merkle = new StateMerkle();
  let status: StatusRow | undefined;
  for (const row of encodedRows(rows)) {
    const db = storeDbOf(row.fileDb)!;
    merkle.push(db, row.key, row.value);
    if (db === DbId.native && equalBytes(row.key, key)) status = StatusRow.unpack(row.value);
  }
  if (!status) throw new SnapshotError('SNAPSHOT_HEAD', 'the kept state has no status row');
  return { status, checksum: merkle.checksum() };
}
