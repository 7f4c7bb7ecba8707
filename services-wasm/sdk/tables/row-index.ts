// An index of a table seen without its key type: what the table maintains for every index and
// what a cursor reads rows through (the primary index 0 holds rows, a secondary index 1..255 the
// full primary key of a row).

import { unpack } from "../fracpack/codec";
import { check } from "../abort";
import { get } from "./db";
import { KeyLocation } from "./location";

export abstract class RowIndex<Row> {
  constructor(readonly location: KeyLocation, readonly number: u8) {}

  /** The full key of `row`'s entry in this index. */
  abstract rowKey(row: Row): Uint8Array;

  /** The row an entry's value stands for (a secondary entry holds the row's full key). */
  rowOf(value: Uint8Array): Row {
    if (this.number == 0) return unpack<Row>(value);
    const row = get(this.location.db, value);
    check(row !== null, "table index entry without a row");
    return unpack<Row>(row!);
  }
}
