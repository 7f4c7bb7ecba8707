// Reading and writing the snapshot native rows (docs/p2p.md §7.2, §7.3; psibase's nativeTables):
// the SnapshotRow (native-subjective table 11, keyed by block id) and the ScheduledSnapshotRow
// (native table 12, written by transact). Their types are host-api's native schema
// (host-api/types/native.ts). The LogTruncateRow (table 13) is the block log's: chain/block-log.ts.

import { DbId } from '../../host-api/abi/databases.js';
import { NativeTable, nativeTableKey, scheduledSnapshotKey, snapshotKey } from '../../host-api/abi/keys.js';
import { concatBytes, equalBytes } from '../../host-api/encoding/bytes.js';
import { SnapshotRow, StateChecksum } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import type { KvReader, KvWriter } from '../db/store.js';

/** What a producer signs: 00 CE A8 'C' ‖ sha256(fracpack(checksum)). */
export function stateSignatureInfo(checksum: StateChecksum): Uint8Array {
  return concatBytes(Uint8Array.of(0x00, 0xce, 0xa8, 0x43), sha256(StateChecksum.pack(checksum)));
}

export function sameChecksum(a: StateChecksum, b: StateChecksum): boolean {
  return equalBytes(a.serviceRoot, b.serviceRoot) && equalBytes(a.nativeRoot, b.nativeRoot);
}

/** The prefix of every SnapshotRow key. */
export const SNAPSHOT_PREFIX = nativeTableKey(NativeTable.snapshot).finish();

export function readSnapshotRow(db: KvReader, blockId: Uint8Array): SnapshotRow | undefined {
  const row = db.get(DbId.nativeSubjective, snapshotKey(blockId));
  return row && SnapshotRow.unpack(row);
}

export function writeSnapshotRow(db: KvWriter, row: SnapshotRow): void {
  db.put(DbId.nativeSubjective, snapshotKey(row.id), SnapshotRow.pack(row));
}

/** Whether transact scheduled a snapshot of block `blockNum` (in the state of that block). */
export function isScheduledSnapshot(db: KvReader, blockNum: number): boolean {
  return db.get(DbId.native, scheduledSnapshotKey(blockNum)) !== undefined;
}
