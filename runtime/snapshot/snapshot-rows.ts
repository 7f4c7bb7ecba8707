// The snapshot types and native rows (docs/p2p.md §7.2, §7.3; psibase's SnapshotHeader and
// nativeTables): the state checksum and its signatures, the SnapshotRow (native-subjective table
// 11, keyed by block id), the LogTruncateRow (table 13) and the ScheduledSnapshotRow (native table
// 12, written by transact).

import { DbId } from '../../host-api/abi/databases.js';
import { nativeTableKey } from '../../host-api/abi/keys.js';
import { concatBytes, equalBytes } from '../../host-api/encoding/bytes.js';
import { compileSchema, type ValueOf } from '../../host-api/fracpack/index.js';
import { CORE_SCHEMA } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { KvReader, KvWriter } from '../db/store.js';

const SNAPSHOT_SCHEMA = {
  ...CORE_SCHEMA,
  StateChecksum: { Object: { serviceRoot: 'Checksum256', nativeRoot: 'Checksum256' } },
  StateSignature: { Object: { account: 'AccountNumber', claim: 'Claim', rawData: 'bytes' } },
  SnapshotStateItem: { Object: { state: 'StateChecksum', signatures: { List: 'StateSignature' } } },
  SnapshotRow: { Object: { id: 'Checksum256', state: { Option: 'SnapshotStateItem' }, other: { List: 'SnapshotStateItem' } } },
  LogTruncateRow: { Object: { start: 'u32' } },
} as const;

const schema = compileSchema(SNAPSHOT_SCHEMA);
type Of<N extends keyof typeof SNAPSHOT_SCHEMA> = ValueOf<typeof SNAPSHOT_SCHEMA, N>;

export type StateChecksum = Of<'StateChecksum'>;
export type StateSignature = Of<'StateSignature'>;
export type SnapshotStateItem = Of<'SnapshotStateItem'>;
export type SnapshotRow = Of<'SnapshotRow'>;
export const StateChecksum = schema.type('StateChecksum');
export const StateSignature = schema.type('StateSignature');
export const SnapshotRow = schema.type('SnapshotRow');
const LogTruncateRow = schema.type('LogTruncateRow');

const NativeSnapshotTable = { snapshot: 11, scheduledSnapshot: 12, logTruncate: 13 } as const;

/** What a producer signs: 00 CE A8 'C' ‖ sha256(fracpack(checksum)). */
export function stateSignatureInfo(checksum: StateChecksum): Uint8Array {
  return concatBytes(Uint8Array.of(0x00, 0xce, 0xa8, 0x43), sha256(StateChecksum.pack(checksum)));
}

export function sameChecksum(a: StateChecksum, b: StateChecksum): boolean {
  return equalBytes(a.serviceRoot, b.serviceRoot) && equalBytes(a.nativeRoot, b.nativeRoot);
}

export function snapshotKey(blockId: Uint8Array): Uint8Array {
  return nativeTableKey(NativeSnapshotTable.snapshot).bytes(blockId).finish();
}

/** The prefix of every SnapshotRow key. */
export const SNAPSHOT_PREFIX = nativeTableKey(NativeSnapshotTable.snapshot).finish();

export function readSnapshotRow(db: KvReader, blockId: Uint8Array): SnapshotRow | undefined {
  const row = db.get(DbId.nativeSubjective, snapshotKey(blockId));
  return row && SnapshotRow.unpack(row);
}

export function writeSnapshotRow(db: KvWriter, row: SnapshotRow): void {
  db.put(DbId.nativeSubjective, snapshotKey(row.id), SnapshotRow.pack(row));
}

/** Whether transact scheduled a snapshot of block `blockNum` (in the state of that block). */
export function isScheduledSnapshot(db: KvReader, blockNum: number): boolean {
  return db.get(DbId.native, nativeTableKey(NativeSnapshotTable.scheduledSnapshot).u32(blockNum).finish()) !== undefined;
}

const LOG_TRUNCATE_KEY = nativeTableKey(NativeSnapshotTable.logTruncate).finish();

/** Where the block log starts, when it was cut at a loaded snapshot. */
export function readLogStart(db: KvReader): number | undefined {
  const row = db.get(DbId.nativeSubjective, LOG_TRUNCATE_KEY);
  return row && LogTruncateRow.unpack(row).start;
}

export function writeLogStart(db: KvWriter, start: number): void {
  db.put(DbId.nativeSubjective, LOG_TRUNCATE_KEY, LogTruncateRow.pack({ start }));
}
