// Event ids come from consensus counters kept in the native database-status row (docs/host-abi.md §8,
// §9; key: databaseStatusKey()), so they advance, and roll back, with the chain state. Row value:
// fracpack extensible struct {nextHistoryEventNumber u64, nextUiEventNumber u64,
// nextMerkleEventNumber u64} = u16 fixed size, then the u64s little-endian. Encoded here by hand
// because it runs for every event. No row yet means every counter is at 1.

import { DbId } from '../../host-api/abi/databases.js';
import { TsibaseError } from '../../host-api/errors.js';
import { copyBytes } from './binary-string.js';

const COUNTERS_OFFSET = 2;
const COUNTERS_SIZE = 24;
const FIRST_EVENT_ID = 1n;

/** Which counter of the row numbers events of `db`. */
export function counterIndexOf(db: number): number {
  switch (db) {
    case DbId.historyEvent: return 0;
    case DbId.uiEvent: return 1;
    case DbId.merkleEvent: return 2;
    default:
      throw new TsibaseError('DB_NOT_EVENT_DB', `database ${db} is not an event database (4, 5 or 6)`);
  }
}

export function readCounter(row: Uint8Array | undefined, index: number): bigint {
  if (row === undefined) return FIRST_EVENT_ID;
  return viewOf(checkedRow(row)).getBigUint64(COUNTERS_OFFSET + 8 * index, true);
}

/** The row with one counter set; any fields a later version appends are kept as they are. */
export function withCounter(row: Uint8Array | undefined, index: number, value: bigint): Uint8Array {
  const updated = row === undefined ? newRow() : copyBytes(checkedRow(row));
  viewOf(updated).setBigUint64(COUNTERS_OFFSET + 8 * index, value, true);
  return updated;
}

export function requireEventId(id: bigint): void {
  if (typeof id !== 'bigint' || id < 0n || id > 0xffff_ffff_ffff_ffffn) {
    throw new TsibaseError('DB_BAD_EVENT_ID', `event id ${id} is not a u64`);
  }
}

function newRow(): Uint8Array {
  const row = new Uint8Array(COUNTERS_OFFSET + COUNTERS_SIZE);
  const view = viewOf(row);
  view.setUint16(0, COUNTERS_SIZE, true);
  for (let i = 0; i < 3; i++) view.setBigUint64(COUNTERS_OFFSET + 8 * i, FIRST_EVENT_ID, true);
  return row;
}

function checkedRow(row: Uint8Array): Uint8Array {
  if (row.length < COUNTERS_OFFSET + COUNTERS_SIZE || viewOf(row).getUint16(0, true) < COUNTERS_SIZE) {
    throw new TsibaseError('DB_BAD_STATUS_ROW', 'the database status row is too short to hold the event counters');
  }
  return row;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
