// A table of records with a primary key and secondary indexes (docs/host-abi.md §8 key layout).
//
//   const counters = new Table<Counter, string>(1, (c: Counter): string => c.name);
//   const byValue = counters.index<u64>((c: Counter): u64 => c.value);
//
// Secondary keys must be unique (make them composite, ending in the primary key, when values
// repeat); `put` keeps every secondary index in step with the rows.

import { AccountNumber } from "../names/types";
import { pack, unpack } from "../fracpack/codec";
import { abort, check } from "../abort";
import { DbId, get, put, remove } from "./db";
import { TableLocation } from "./location";
import { Index } from "./table-index";
import { RowIndex } from "./row-index";
import { compareBytes } from "./cursor";

export class Table<Row, PK> {
  readonly location: TableLocation;
  /** The primary index: iterate rows in primary key order. */
  readonly primary: Index<Row, PK>;
  private secondaries: Array<RowIndex<Row>> = [];

  /**
   * Table `table` of `owner` (0: the running service) in `db`. Only the owner writes; any service
   * reads tables of the service db. In the writeOnly db rows cannot be read back during a
   * transaction, so there `put` does not remove stale secondary entries.
   */
  constructor(table: u16, primaryKey: (row: Row) => PK, db: DbId = DbId.service, owner: AccountNumber = 0) {
    const location = new TableLocation(db, owner, table);
    this.location = location;
    this.primary = new Index<Row, PK>(location, 0, primaryKey);
  }

  /** Adds the next secondary index (numbered 1, 2, ... in the order of the calls). */
  index<K>(key: (row: Row) => K): Index<Row, K> {
    check(this.secondaries.length < 255, "a table has at most 255 secondary indexes");
    const index = new Index<Row, K>(this.location, <u8>(this.secondaries.length + 1), key);
    this.secondaries.push(index);
    return index;
  }

  get(key: PK): Row | null {
    return this.primary.get(key);
  }

  /** Inserts or replaces the row with the same primary key. */
  put(row: Row): void {
    const db = this.location.db;
    const key = this.primary.rowKey(row);
    const entries = new Array<Uint8Array>(this.secondaries.length);
    for (let i = 0; i < entries.length; i++) entries[i] = this.secondaries[i].rowKey(row);
    const readBack = this.canReadBack();
    const old = readBack ? get(db, key) : null;
    if (old !== null) this.removeStaleEntries(unpack<Row>(old), entries);
    put(db, key, pack<Row>(row));
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (readBack) {
        const existing = get(db, entry);
        if (existing !== null && compareBytes(existing, key) != 0) abort("duplicate key in secondary index " + (i + 1).toString() + " of table " + this.location.table.toString());
      }
      put(db, entry, key);
    }
  }

  /** Removes the row with this primary key (and its secondary entries), if present. */
  remove(pk: PK): void {
    const db = this.location.db;
    const key = this.primary.keyBytes(pk);
    if (this.canReadBack()) {
      const old = get(db, key);
      if (old === null) return;
      const row = unpack<Row>(old);
      for (let i = 0; i < this.secondaries.length; i++) remove(db, this.secondaries[i].rowKey(row));
    }
    remove(db, key);
  }

  private canReadBack(): bool {
    return this.secondaries.length > 0 && this.location.db != DbId.writeOnly;
  }

  /** Removes the secondary entries of `old` that differ from the new row's `entries`. */
  private removeStaleEntries(old: Row, entries: Array<Uint8Array>): void {
    for (let i = 0; i < this.secondaries.length; i++) {
      const before = this.secondaries[i].rowKey(old);
      if (compareBytes(before, entries[i]) != 0) remove(this.location.db, before);
    }
  }
}
