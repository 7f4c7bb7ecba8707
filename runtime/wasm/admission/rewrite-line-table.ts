import { decodeLineTable, encodeLineTable, type LineTable } from '../../../host-api/abi/line-table.js';
import { TsibaseError } from '../../../host-api/errors.js';
import type { CodeOffsets } from './code-offsets.js';

/**
 * The module's line table (docs/host-abi.md §10.2) with its offsets moved to the metered code.
 * A table that does not decode is dropped (undefined): it is debug information only, and a trap
 * then names no line.
 */
export function rewriteLineTable(bytes: Uint8Array, offsets: CodeOffsets): Uint8Array | undefined {
  let table: LineTable;
  try {
    table = decodeLineTable(bytes);
  } catch (error) {
    if (error instanceof TsibaseError && error.code === 'LINE_TABLE_MALFORMED') return undefined;
    throw error;
  }
  return encodeLineTable({ ...table, entries: table.entries.map((e) => ({ ...e, offset: offsets.moved(e.offset) })) });
}
