// One index of a table: the primary index (0) maps keys to rows, a secondary index (1..255) maps
// its keys to the full primary key of a row.

import { get, greaterEqual, lessThan, max } from "./db";
import { KeyLocation } from "./location";
import { Cursor, successor } from "./cursor";
import { RowIndex } from "./row-index";

export class Index<Row, K> extends RowIndex<Row> {
  constructor(location: KeyLocation, number: u8, readonly keyOf: (row: Row) => K) {
    super(location, number);
  }

  rowKey(row: Row): Uint8Array {
    return this.keyBytes(this.keyOf(row));
  }

  /** The full key of `key` in this index. */
  keyBytes(key: K): Uint8Array {
    return this.location.key<K>(this.number, key);
  }

  /** The row stored under `key`, or null. */
  get(key: K): Row | null {
    const value = get(this.location.db, this.keyBytes(key));
    return value === null ? null : this.rowOf(value);
  }

  /** At the smallest key. */
  first(): Cursor<Row, K> {
    return this.between(this.location.prefix(this.number), null);
  }

  /** At the largest key (move with prev()). */
  last(): Cursor<Row, K> {
    return this.between(this.location.prefix(this.number), null, true);
  }

  /** At the first key >= `key`. */
  lowerBound(key: K): Cursor<Row, K> {
    return new Cursor<Row, K>(this, greaterEqual(this.location.db, this.keyBytes(key), this.location.prefixLength), null, null);
  }

  /** At the first key > `key`. */
  upperBound(key: K): Cursor<Row, K> {
    return new Cursor<Row, K>(this, greaterEqual(this.location.db, successor(this.keyBytes(key)), this.location.prefixLength), null, null);
  }

  /** Keys in [lower, upper), starting at the smallest. */
  range(lower: K, upper: K): Cursor<Row, K> {
    return this.between(this.keyBytes(lower), this.keyBytes(upper));
  }

  /** Keys in [lower, upper), starting at the largest (move with prev()). */
  rangeDescending(lower: K, upper: K): Cursor<Row, K> {
    return this.between(this.keyBytes(lower), this.keyBytes(upper), true);
  }

  /**
   * Full keys (prefix included) in [lower, upper), `upper` null for the end of the index; at the
   * smallest, or at the largest when `descending`.
   */
  between(lower: Uint8Array, upper: Uint8Array | null, descending: bool = false): Cursor<Row, K> {
    const db = this.location.db;
    const entry = !descending ? greaterEqual(db, lower, this.location.prefixLength)
      : upper !== null ? lessThan(db, upper, this.location.prefixLength) : max(db, this.location.prefix(this.number));
    // A lower bound that is only the prefix holds for every entry the host returns: no compare per step.
    return new Cursor<Row, K>(this, entry, lower.length != <i32>this.location.prefixLength ? lower : null, upper);
  }
}
