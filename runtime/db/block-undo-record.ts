// What a reversible block's commit overwrote (docs/chain.md §1.6): for each chain row it wrote,
// the database, the key and the value before the block (or its absence). Node-local, never on
// the wire, so the layout is ours: per row u8 db, u32 key length, key, u8 present, and when
// present u32 value length, value; integers little-endian.

import { TsibaseError } from '../../host-api/errors.js';

/** One overwritten row: `previous` undefined means the block created the row. */
export interface UndoEntry {
  readonly db: number;
  readonly key: Uint8Array;
  readonly previous: Uint8Array | undefined;
}

export function packUndoRecord(entries: readonly UndoEntry[]): Uint8Array {
  let size = 0;
  for (const e of entries) size += 1 + 4 + e.key.length + 1 + (e.previous ? 4 + e.previous.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  const bytes = (b: Uint8Array) => {
    view.setUint32(at, b.length, true);
    out.set(b, at + 4);
    at += 4 + b.length;
  };
  for (const e of entries) {
    out[at++] = e.db;
    bytes(e.key);
    out[at++] = e.previous ? 1 : 0;
    if (e.previous) bytes(e.previous);
  }
  return out;
}

export function unpackUndoRecord(record: Uint8Array): UndoEntry[] {
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  const entries: UndoEntry[] = [];
  let at = 0;
  const need = (n: number) => {
    if (at + n > record.length) throw new TsibaseError('DB_BAD_UNDO_RECORD', `block undo record is cut short at byte ${at}`);
  };
  const bytes = () => {
    need(4);
    const length = view.getUint32(at, true);
    need(4 + length);
    const b = record.slice(at + 4, at + 4 + length);
    at += 4 + length;
    return b;
  };
  while (at < record.length) {
    need(1);
    const db = record[at++]!;
    const key = bytes();
    need(1);
    const present = record[at++]!;
    entries.push({ db, key, previous: present ? bytes() : undefined });
  }
  return entries;
}
