// What a store shares with the query threads that read it (docs/serving.md §10): where they open
// its LMDB environment, and its uncommitted writes as changes, in the order it made them.

import type { OverlayChanges } from './write-overlay.js';

/** What changed in a store since its last ViewChanges: the commits LMDB holds, and each undo domain's overlay. */
export interface ViewChanges {
  readonly commits: number;
  readonly chain: OverlayChanges;
  readonly subjective: OverlayChanges;
}

/** Where another thread opens a store's LMDB environment. */
export interface StoreLocation {
  readonly directory: string;
  readonly durable: boolean;
}

/** A store other threads read (LmdbStore.sharedReads). */
export interface SharedReads {
  readonly location: StoreLocation;
  /** The changes since the last call (or since reads were first shared). */
  changes(): ViewChanges;
  /** Every uncommitted write, as the changes since an empty overlay: for a thread that starts now. */
  everything(): ViewChanges;
}
