// An UndoScope over one write overlay whose commit lands in LMDB: the chain databases have one,
// the subjective databases another, so neither's rollback or commit touches the other's writes.

import { TsibaseError } from '../../host-api/errors.js';
import type { LmdbEnvironment } from './lmdb-environment.js';
import type { UndoScope } from './store.js';
import type { WriteOverlay } from './write-overlay.js';

export class LmdbUndoScope implements UndoScope {
  constructor(
    private readonly overlay: WriteOverlay,
    private readonly environment: LmdbEnvironment,
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

  commit(): void {
    if (this.overlay.checkpointDepth > 0) {
      throw new TsibaseError('DB_CHECKPOINT_OPEN',
        `cannot commit with ${this.overlay.checkpointDepth} checkpoint(s) open`);
    }
    // On failure LMDB has aborted the transaction and the overlay is intact for abort().
    if (!this.overlay.isEmpty()) this.environment.write(this.overlay);
    this.overlay.clear();
  }

  abort(): void {
    this.overlay.clear();
  }
}
