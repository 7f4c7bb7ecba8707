// Uncommitted writes of one undo domain, per database, with nested checkpoints. Reads merge an
// overlay table over the committed data (ordered-lookup.ts); commit copies it into LMDB.
//
// Undo is a log of (table, key, previous overlay value) appended by every write while a
// checkpoint is open: rollback replays it backwards, release just forgets the checkpoint (its
// records now belong to the enclosing one). Checkpoint and release are O(1), rollback costs
// what it undoes, and with no checkpoint open nothing is logged.

import { TsibaseError } from '../../host-api/errors.js';
import { SortedKeys } from './sorted-keys.js';

/** An overlay value: bytes, or null for a tombstone (the key reads as absent). */
export type OverlayValue = Uint8Array | null;

export class OverlayTable {
  readonly values = new Map<string, OverlayValue>();
  readonly order = new SortedKeys();

  constructor(readonly db: number) {}
}

/**
 * What changed in an overlay since it was last asked (trackChanges): whether it was cleared
 * (committed or aborted), and each key written or undone since, with what the overlay holds for
 * it now (undefined: nothing, the committed row shows).
 */
export interface OverlayChanges {
  readonly cleared: boolean;
  readonly rows: readonly (readonly [db: number, key: string, value: OverlayValue | undefined])[];
}

export class WriteOverlay {
  private readonly tables: OverlayTable[] = [];
  private readonly undoTables: OverlayTable[] = [];
  private readonly undoKeys: string[] = [];
  // undefined: the key was not in the overlay before the write.
  private readonly undoPrevious: (OverlayValue | undefined)[] = [];
  private readonly checkpointIds: number[] = [];
  private readonly checkpointUndoLengths: number[] = [];
  private nextCheckpointId = 1;
  /** Keys written or undone since the last takeChanges, by database: kept only once trackChanges is called. */
  private touched: Map<number, Set<string>> | undefined;
  private clearedSince = false;

  table(db: number): OverlayTable | undefined {
    return this.tables[db];
  }

  write(db: number, key: string, value: OverlayValue): void {
    const table = (this.tables[db] ??= new OverlayTable(db));
    if (this.touched) this.touch(db, key);
    const previous = table.values.get(key);
    if (previous === undefined) table.order.insert(key);
    table.values.set(key, value);
    if (this.checkpointIds.length > 0) {
      this.undoTables.push(table);
      this.undoKeys.push(key);
      this.undoPrevious.push(previous);
    }
  }

  get checkpointDepth(): number {
    return this.checkpointIds.length;
  }

  checkpoint(): number {
    const id = this.nextCheckpointId++;
    this.checkpointIds.push(id);
    this.checkpointUndoLengths.push(this.undoKeys.length);
    return id;
  }

  /** Undoes every write since `checkpoint`, closing it and any checkpoint opened after it. */
  rollback(checkpoint: number): void {
    const level = this.levelOf(checkpoint);
    const undoLength = this.checkpointUndoLengths[level];
    for (let i = this.undoKeys.length - 1; i >= undoLength; i--) {
      const table = this.undoTables[i];
      const key = this.undoKeys[i];
      const previous = this.undoPrevious[i];
      if (this.touched) this.touch(table.db, key);
      if (previous === undefined) {
        table.values.delete(key);
        table.order.delete(key);
      } else {
        table.values.set(key, previous);
      }
    }
    this.truncateUndo(undoLength);
    this.closeFrom(level);
  }

  /** Keeps the writes since `checkpoint` as part of the enclosing level, closing it and any inner ones. */
  release(checkpoint: number): void {
    const level = this.levelOf(checkpoint);
    // The outermost level has no enclosing checkpoint left to undo into.
    if (level === 0) this.truncateUndo(0);
    this.closeFrom(level);
  }

  /** Takes database `db`'s writes out of the overlay (with no checkpoint open, so no undo refers to them). */
  detach(db: number): OverlayTable | undefined {
    if (this.checkpointIds.length > 0) throw new TsibaseError('DB_CHECKPOINT_OPEN', 'cannot detach writes under an open checkpoint');
    const table = this.tables[db];
    delete this.tables[db];
    return table;
  }

  /** Drops every write and checkpoint. */
  clear(): void {
    if (this.touched) {
      this.touched.clear();
      this.clearedSince = true;
    }
    this.tables.length = 0;
    this.truncateUndo(0);
    this.closeFrom(0);
  }

  isEmpty(): boolean {
    return this.tables.every((table) => table.values.size === 0);
  }

  /** Visits every overlay entry, by database then key order (LMDB inserts fastest in order). */
  forEachEntry(visit: (db: number, key: string, value: OverlayValue) => void): void {
    for (let db = 0; db < this.tables.length; db++) {
      const table = this.tables[db];
      if (!table) continue;
      table.order.forEach((key) => visit(db, key, table.values.get(key)!));
    }
  }

  /** From now on the overlay keeps what changed in it, for takeChanges. */
  trackChanges(): void {
    this.touched ??= new Map();
  }

  /** What changed since the last call (or since trackChanges); starts the record over. */
  takeChanges(): OverlayChanges {
    const rows: [number, string, OverlayValue | undefined][] = [];
    for (const [db, keys] of this.touched ?? []) {
      const table = this.tables[db];
      for (const key of keys) rows.push([db, key, table?.values.get(key)]);
    }
    const cleared = this.clearedSince;
    this.touched?.clear();
    this.clearedSince = false;
    return { cleared, rows };
  }

  /** Every row the overlay holds, as the changes since an empty overlay. */
  allRows(): OverlayChanges {
    const rows: [number, string, OverlayValue][] = [];
    this.forEachEntry((db, key, value) => rows.push([db, key, value]));
    return { cleared: true, rows };
  }

  /** Sets what the overlay holds for `key` (with no checkpoint open): a copy of another overlay's row; undefined removes it. */
  mirror(db: number, key: string, value: OverlayValue | undefined): void {
    if (this.checkpointIds.length > 0) throw new TsibaseError('DB_CHECKPOINT_OPEN', 'cannot mirror writes under an open checkpoint');
    if (value !== undefined) return this.write(db, key, value);
    const table = this.tables[db];
    if (table?.values.delete(key)) table.order.delete(key);
  }

  private touch(db: number, key: string): void {
    let keys = this.touched!.get(db);
    if (!keys) this.touched!.set(db, (keys = new Set()));
    keys.add(key);
  }

  private levelOf(checkpoint: number): number {
    const level = this.checkpointIds.lastIndexOf(checkpoint);
    if (level < 0) {
      throw new TsibaseError('DB_NO_SUCH_CHECKPOINT', `checkpoint ${checkpoint} is not open`);
    }
    return level;
  }

  private truncateUndo(length: number): void {
    this.undoTables.length = length;
    this.undoKeys.length = length;
    this.undoPrevious.length = length;
  }

  private closeFrom(level: number): void {
    this.checkpointIds.length = level;
    this.checkpointUndoLengths.length = level;
  }
}
