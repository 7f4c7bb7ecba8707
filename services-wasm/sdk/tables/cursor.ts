// A position in a table index, moving in key order within the index (and an optional range).

import { greaterEqual, KeyValue, lessThan, range } from "./db";
import { RowIndex } from "./row-index";

/** Compares byte strings like the store does (bytewise, a prefix first). */
export function compareBytes(a: Uint8Array, b: Uint8Array): i32 {
  const n = min(a.length, b.length);
  const c = memory.compare(a.dataStart, b.dataStart, n);
  return c != 0 ? c : a.length - b.length;
}

/** `key` followed by 0x00: the smallest key greater than `key`. */
export function successor(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  memory.copy(next.dataStart, key.dataStart, key.length);
  return next;
}

/** `K` is the key type of the index walked (services name it: `Cursor<Row, K>`); rows are read through the index's RowIndex side. */
export class Cursor<Row, K> {
  /** The full key of the current entry (valid only while `valid`). */
  key: Uint8Array = new Uint8Array(0);
  /** The current entry's stored value: a row, or for a secondary index the row's full key. */
  value: Uint8Array = new Uint8Array(0);
  valid: bool = false;

  /** `lower` (inclusive) and `upper` (exclusive) bound the full keys, when given. */
  constructor(readonly index: RowIndex<Row>, entry: KeyValue | null, private lower: Uint8Array | null, private upper: Uint8Array | null) {
    this.moveTo(entry);
  }

  /** The row at the current entry. */
  row(): Row {
    return this.index.rowOf(this.value);
  }

  next(): void {
    if (this.valid) this.moveTo(greaterEqual(this.index.location.db, successor(this.key), this.index.location.prefixLength));
  }

  prev(): void {
    if (this.valid) this.moveTo(lessThan(this.index.location.db, this.key, this.index.location.prefixLength));
  }

  /**
   * Up to `count` entries from the current one on, moving forward past them: the entries after
   * the current one and the position after them come in one host call (kvRange), so this is for
   * queries (RPC mode) only. Keys and values are views of that call's reply.
   */
  ahead(count: i32): Array<KeyValue> {
    const out = new Array<KeyValue>();
    if (!this.valid || count <= 0) return out;
    out.push(new KeyValue(this.key, this.value));
    const location = this.index.location;
    let from = successor(this.key);
    // The entries after the current one, then the one where the cursor stands next. A reply may
    // hold fewer rows than asked before the range ends (its size is bounded): ask on from its last.
    while (true) {
      const following = range(location.db, from, location.prefixLength, this.upper, <u32>(count - out.length + 1));
      if (following.length == 0) {
        this.valid = false;
        return out;
      }
      for (let i = 0; i < following.length; i++) {
        const entry = following[i];
        if (out.length < count) {
          out.push(entry);
          continue;
        }
        this.key = entry.key;
        this.value = entry.value;
        return out;
      }
      from = successor(following[following.length - 1].key);
    }
  }

  /** The rows from here on (at most `limit`), moving forward. */
  rows(limit: i32 = i32.MAX_VALUE): Array<Row> {
    const out = new Array<Row>();
    while (this.valid && out.length < limit) {
      out.push(this.row());
      this.next();
    }
    return out;
  }

  private moveTo(entry: KeyValue | null): void {
    // The host keeps entries inside the index (match length = the prefix length); the range is ours.
    if (entry === null) {
      this.valid = false;
      return;
    }
    const lower = this.lower;
    const upper = this.upper;
    this.valid = (lower === null || compareBytes(entry.key, lower) >= 0) && (upper === null || compareBytes(entry.key, upper) < 0);
    this.key = entry.key;
    this.value = entry.value;
  }
}
