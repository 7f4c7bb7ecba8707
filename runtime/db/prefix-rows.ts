import type { KvEntry, KvReader } from './store.js';

/** Every row of `db` whose key starts with `prefix`, ascending. */
export function* rowsOf(reader: KvReader, db: number, prefix: Uint8Array = new Uint8Array(0)): Generator<KvEntry> {
  let row = reader.greaterEqual(db, prefix, prefix.length);
  while (row) {
    yield row;
    // The next key after `row.key` is itself followed by a zero byte.
    const next = new Uint8Array(row.key.length + 1);
    next.set(row.key);
    row = reader.greaterEqual(db, next, prefix.length);
  }
}
