// An UndoScope over one write overlay whose commit lands in LMDB: the chain databases have one,
// the subjective databases another, so neither's rollback or commit touches the other's writes.
// Databases held in memory (session) land in their MemoryTable instead, so a commit that wrote
// only those never reaches LMDB, nor waits for a disk sync.

import { TsibaseError } from '../../host-api/errors.js';
import type { BlockUndoPlan, LmdbEnvironment } from './lmdb-environment.js';
import type { MemoryTable } from './memory-table.js';
import type { UndoScope } from './store.js';
import type { OverlayTable, WriteOverlay } from './write-overlay.js';

export class LmdbUndoScope implements UndoScope {
  constructor(
    private readonly overlay: WriteOverlay,
    private readonly environment: LmdbEnvironment,
    private readonly inMemory: ReadonlyMap<number, MemoryTable> = new Map(),
  ) {}

  checkpoint(): number {
    return this.overlay.checkpoint();
  }

  rollback(checkpoint: number): void {
    this.overlay.rollback(checkpoint);
  }

  release(checkpoint: number): void {
    this.overlay.release(checkpoint);
  }

  /** Commits; a block's commit (chain domain) also carries its undo plan (lmdb-environment.ts). */
  commit(plan?: BlockUndoPlan): void {
    if (this.overlay.checkpointDepth > 0) {
      throw new TsibaseError('DB_CHECKPOINT_OPEN',
        `cannot commit with ${this.overlay.checkpointDepth} checkpoint(s) open`);
    }
    const held: [MemoryTable, OverlayTable][] = [];
    for (const [db, table] of this.inMemory) {
      const writes = this.overlay.detach(db);
      if (writes) held.push([table, writes]);
    }
    // On failure LMDB has aborted the transaction; abort() drops the rest, in memory too.
    if (!this.overlay.isEmpty() || plan) this.environment.write(this.overlay, plan);
    for (const [table, writes] of held) table.apply(writes);
    this.overlay.clear();
  }

  abort(): void {
    this.overlay.clear();
  }
}
