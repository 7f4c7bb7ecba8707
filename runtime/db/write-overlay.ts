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

  table(db: number): OverlayTable | undefined {
    return this.tables[db];
  }

  write(db: number, key: string, value: OverlayValue): void {
    const table = (this.tables[db] ??= new OverlayTable());
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
