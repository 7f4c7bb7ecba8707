// The snapshots this node can hand out (docs/p2p.md §7.2-7.4): the newest kept state whose
// checksum enough producers of its own current set signed.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { DbId } from '../../host-api/abi/databases.js';
import { statusKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId, blockNumOfId } from '../../host-api/chain/block-id.js';
import { SnapshotRow, StatusRow, type StateChecksum, type StateSignature } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import { KvMerkle } from '../crypto/kv-merkle.js';
import type { KvReader } from '../db/store.js';
import type { KeptStates } from './kept-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodedRows, FileDb } from './snapshot-file.js';
import { SNAPSHOT_PREFIX, sameChecksum } from './snapshot-rows.js';
import { rowsOf } from './state-rows.js';
import { signingProducers, weakThreshold } from './state-signatures.js';

export interface SignedState {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
  readonly rows: Uint8Array;
  readonly checksum: StateChecksum;
  readonly signatures: StateSignature[];
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
    const status = statusIn(keptRows);
    const checksum = checksumOf(keptRows);
    if (!sameChecksum(checksum, row.state.state)) {
      throw new SnapshotError('SNAPSHOT_CHECKSUM', `the kept state of block ${blockNum} does not match its recorded checksum`);
    }
    const signatures = [...row.state.signatures, ...more(status, checksum)];
    const consensus = status.consensus.current;
    if (signingProducers(consensus, signatures).size < weakThreshold(consensus)) continue;
    const block = readBlock(store, blockNum);
    if (!block || !equalBytes(computeBlockId(block.header), row.id)) continue;
    return { blockNum, blockId: row.id, rows: keptRows, checksum, signatures };
  }
  throw new SnapshotError('SNAPSHOT_NONE', 'no verified snapshot available: no kept snapshot state has enough producer signatures (schedule snapshots with transact::setSnapTime)');
}

/** The status row among a kept state's native rows. */
function statusIn(rows: Uint8Array): StatusRow {
  const key = Buffer.from(statusKey());
  for (const row of encodedRows(rows)) if (row.fileDb === FileDb.native && key.equals(row.key)) return StatusRow.unpack(row.value);
  throw new SnapshotError('SNAPSHOT_HEAD', 'the kept state has no status row');
}

function checksumOf(rows: Uint8Array): StateChecksum {
  const roots = new Map<number, KvMerkle>([[FileDb.service, new KvMerkle()], [FileDb.native, new KvMerkle()]]);
  for (const { fileDb, key, value } of encodedRows(rows)) roots.get(fileDb)!.push(key, value);
  return { serviceRoot: roots.get(FileDb.service)!.root(), nativeRoot: roots.get(FileDb.native)!.root() };
}
