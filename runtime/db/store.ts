// The state store seam (docs/design.md decision 10): what the host imports and block production need
// from chain state, with LmdbStore (lmdb-store.ts) as its one implementation.
//
import type { SharedReads } from './shared-reads.js';

// Keys and values are bytes; keys order bytewise. The store copies what it is given (callers may
// pass views of wasm memory) and the bytes it returns must be treated as read-only.

export interface KvEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** The lookups of docs/host-abi.md §3; they see every uncommitted write. */
export interface KvReader {
  get(db: number, key: Uint8Array): Uint8Array | undefined;
  /** The smallest key >= `key` whose first `matchLength` bytes equal those of `key`. */
  greaterEqual(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined;
  /** The largest key < `key` whose first `matchLength` bytes equal those of `key`. */
  lessThan(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined;
  /** The largest key that starts with `prefix`. */
  max(db: number, prefix: Uint8Array): KvEntry | undefined;
  /** The entries greaterEqual steps through forward from `range.start` (kvRange, docs/host-abi.md §3). */
  forward(db: number, range: ForwardRange): readonly KvEntry[];
}

/**
 * A forward walk: from greaterEqual(start, matchLength), each next entry greaterEqual of the
 * previous key followed by 0x00, while below `upper` (exclusive; none when undefined), at most
 * `maxRows` entries, ending early after the entry that brings the walk's bytes (key and value
 * lengths plus 8 per entry) to `maxBytes` or more.
 */
export interface ForwardRange {
  readonly start: Uint8Array;
  readonly matchLength: number;
  readonly upper: Uint8Array | undefined;
  readonly maxRows: number;
  readonly maxBytes: number;
}

export interface KvWriter {
  put(db: number, key: Uint8Array, value: Uint8Array): void;
  remove(db: number, key: Uint8Array): void;
}

/**
 * Nested undo over uncommitted writes. A checkpoint id stays valid until it, or a checkpoint
 * opened before it, is rolled back or released.
 */
export interface UndoScope {
  checkpoint(): number;
  /** Discards every write since the checkpoint. */
  rollback(checkpoint: number): void;
  /** Folds the writes since the checkpoint into the enclosing level. */
  release(checkpoint: number): void;
  /** Writes everything in one durable LMDB transaction; no checkpoint may be open. */
  commit(): void;
  /** Drops every uncommitted write and checkpoint. */
  abort(): void;
}

/**
 * Reads and writes address any persisted database; undo and commit on the store itself cover
 * the chain databases (0-8), those of `subjective` the subjective ones (64, 65), so rolling back
 * a transaction never touches subjective writes and each side commits on its own.
 * The temporary database (67) is not here: each execution context gets a TemporaryDb.
 */
export interface Store extends KvReader, KvWriter, UndoScope {
  readonly subjective: UndoScope;
  /**
   * Moves whenever a row of the native code, codeByHash or config tables may have changed (a
   * write to one, a rollback, an abort), so what is decoded from those rows can be cached.
   */
  readonly nativeRowsVersion: number;
  /**
   * Commits a block's writes (docs/chain.md §1.6). While `blockNum` is above `irreversibleNum`
   * the block is reversible: the commit keeps what it overwrote, so revertBlock can restore the
   * state before it. Records of blocks up to `irreversibleNum` are dropped in the same commit.
   */
  commitBlock(blockNum: number, irreversibleNum: number): void;
  /** Restores the chain databases to the state before `blockNum`, the newest reversible block. */
  revertBlock(blockNum: number): void;
  /** The reversible blocks (those with an undo record), ascending. */
  reversibleBlocks(): readonly number[];
  /** Appends an event to database 4, 5 or 6 and returns its id (docs/host-abi.md §9). */
  putSequential(db: number, value: Uint8Array): bigint;
  getSequential(db: number, id: bigint): Uint8Array | undefined;
  close(): Promise<void>;
  /** Reads shared with query threads (docs/serving.md §10); absent on a store that cannot share them. */
  sharedReads?(): SharedReads;
}
