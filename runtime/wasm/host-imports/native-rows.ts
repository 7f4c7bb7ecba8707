import { codeByHashKey, codeKey, nativeTableKey, NativeTable, scheduledSnapshotKey } from '../../../host-api/abi/keys.js';
import { equalBytes } from '../../../host-api/encoding/bytes.js';
import { FracpackError } from '../../../host-api/fracpack/index.js';
import { WRITABLE_NATIVE_ROWS } from '../../../host-api/types/native.js';
import { HostError } from '../errors.js';

// Writes to the native database are validated (docs/host-abi.md §4): only the tables that may be
// written, each value a valid row, stored under exactly the key that row belongs at.

function expectedKey(table: number, row: Record<string, unknown>): Uint8Array | undefined {
  switch (table) {
    case NativeTable.code: return codeKey(row.codeNum as bigint);
    case NativeTable.codeByHash: return codeByHashKey(row.codeHash as Uint8Array, row.vmType as number, row.vmVersion as number);
    case NativeTable.scheduledSnapshot: return scheduledSnapshotKey(row.blockNum as number);
    default: return nativeTableKey(table).finish();
  }
}

/** A checked write to the native database: its table and, for tables with a row type, the row. */
export interface NativeWrite {
  readonly table: number;
  readonly row: Record<string, unknown> | undefined;
}

export function validateNativeWrite(key: Uint8Array, value: Uint8Array): NativeWrite {
  if (key.length < 3) throw new HostError('HOST_BAD_ARGUMENT', `kvPut: native key of ${key.length} bytes has no table number`);
  const table = (key[0]! << 8) | key[1]!;
  if (!WRITABLE_NATIVE_ROWS.has(table)) throw new HostError('HOST_ACCESS_DENIED', `kvPut: native table ${table} cannot be written by services`);
  const codec = WRITABLE_NATIVE_ROWS.get(table);
  if (!codec) return { table, row: undefined };
  let row: Record<string, unknown>;
  try {
    row = codec.unpack(value) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof FracpackError) throw new HostError('HOST_BAD_ARGUMENT', `kvPut: invalid row for native table ${table}: ${err.message}`);
    throw err;
  }
  const expected = expectedKey(table, row);
  if (expected && !equalBytes(expected, key)) {
    throw new HostError('HOST_BAD_ARGUMENT', `kvPut: native table ${table} row is stored under the wrong key`);
  }
  return { table, row };
}
