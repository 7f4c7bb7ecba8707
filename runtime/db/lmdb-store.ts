// The Store on lmdb-js: reads merge the write overlay of the database's undo domain with LMDB,
// writes go to that overlay, and commit moves the overlay into LMDB in one transaction.

import { DbId } from '../../host-api/abi/databases.js';
import { NativeTable, databaseStatusKey, eventKey } from '../../host-api/abi/keys.js';
import { TsibaseError } from '../../host-api/errors.js';
import { copyBytes, toBinaryString } from './binary-string.js';
import { counterIndexOf, readCounter, withCounter } from './event-counters.js';
import { requireBytes, requireStorableKey } from './input-checks.js';
import { LmdbEnvironment, type StoreOptions } from './lmdb-environment.js';
import { LmdbUndoScope } from './lmdb-undo-scope.js';
import { MemoryTable } from './memory-table.js';
import type { CommittedTable } from './ordered-lookup.js';
import { chainDbIds, sessionDbIds, subjectiveDbIds } from './persisted-dbs.js';
import type { Store, UndoScope } from './store.js';
import { notPersisted, OverlaidReads } from './overlaid-reads.js';
import type { SharedReads, StoreLocation } from './shared-reads.js';
import { WriteOverlay, type OverlayChanges } from './write-overlay.js';

const statusKey = databaseStatusKey();

/** Native tables whose rows readers cache (see Store.nativeRowsVersion). */
const CACHED_TABLES = new Set<number>([NativeTable.code, NativeTable.codeByHash, NativeTable.config]);

/** The changes without the session database's rows: it stays in the chain thread's memory. */
function withoutSession(changes: OverlayChanges): OverlayChanges {
  return { cleared: changes.cleared, rows: changes.rows.filter(([db]) => !sessionDbIds.includes(db)) };
}

/** Whether a native key is a row of a cached table: a u16 table number, then index 0. */

function isCachedNativeRow(key: Uint8Array): boolean {
  return key.length >= 3 && key[2] === 0 && CACHED_TABLES.has((key[0]! << 8) | key[1]!);
}

export class LmdbStore extends OverlaidReads implements Store {
  readonly subjective: UndoScope;
  nativeRowsVersion = 0;
  private readonly chainOverlay = new WriteOverlay();
  private readonly subjectiveOverlay = new WriteOverlay();
  private readonly chain: LmdbUndoScope;
  // Both by database id, read on every access: an array index costs less than a map lookup.
  /** The overlay of each persisted database's undo domain. */
  private readonly overlays: WriteOverlay[] = [];
  /** The committed content of each persisted database: LMDB's, or a MemoryTable for those held in memory (session). */
  private readonly committedTables: CommittedTable[] = [];

  private shared: SharedReads | undefined;

  private constructor(private readonly environment: LmdbEnvironment, private readonly location: StoreLocation) {
    super();
    const inMemory = new Map<number, MemoryTable>(sessionDbIds.map((db) => [db, new MemoryTable()]));
    this.chain = new LmdbUndoScope(this.chainOverlay, environment);
    this.subjective = new LmdbUndoScope(this.subjectiveOverlay, environment, inMemory);
    for (const db of chainDbIds) this.overlays[db] = this.chainOverlay;
    for (const db of [...subjectiveDbIds, ...sessionDbIds]) this.overlays[db] = this.subjectiveOverlay;
    for (const db of [...chainDbIds, ...subjectiveDbIds]) this.committedTables[db] = environment.committed(db);
    for (const [db, table] of inMemory) this.committedTables[db] = table;
  }

  /** Opens (creating if needed) the LMDB environment in `directory`. */
  static open(directory: string, options?: StoreOptions): LmdbStore {
    return new LmdbStore(LmdbEnvironment.open(directory, options), { directory, durable: options?.durable ?? true });
  }

  /**
   * Reads for query threads (docs/serving.md §10): from the first call on, the overlays keep what
   * changes in them for `changes()`.
   */
  sharedReads(): SharedReads {
    if (this.shared) return this.shared;
    this.chainOverlay.trackChanges();
    this.subjectiveOverlay.trackChanges();
    return (this.shared = {
      location: this.location,
      changes: () => ({
        commits: this.environment.commitCount,
        chain: withoutSession(this.chainOverlay.takeChanges()),
        subjective: withoutSession(this.subjectiveOverlay.takeChanges()),
      }),
      everything: () => ({
        commits: this.environment.commitCount,
        chain: withoutSession(this.chainOverlay.allRows()),
        subjective: withoutSession(this.subjectiveOverlay.allRows()),
      }),
    });
  }

  put(db: number, key: Uint8Array, value: Uint8Array): void {
    requireStorableKey(key);
    requireBytes('value', value);
    this.noteWrite(db, key);
    this.overlayOf(db).write(db, toBinaryString(key), copyBytes(value));
  }

  remove(db: number, key: Uint8Array): void {
    requireBytes('key', key);
    const overlay = this.overlayOf(db);
    this.noteWrite(db, key);
    // LMDB holds no empty key, so there is nothing to remove (and LMDB would refuse the delete).
    if (key.length > 0) overlay.write(db, toBinaryString(key), null);
  }

  putSequential(db: number, value: Uint8Array): bigint {
    const counter = counterIndexOf(db);
    requireBytes('value', value);
    const row = this.get(DbId.native, statusKey);
    const id = readCounter(row, counter);
    this.put(DbId.native, statusKey, withCounter(row, counter, id + 1n));
    this.put(db, eventKey(id), value);
    return id;
  }

  checkpoint(): number {
    return this.chain.checkpoint();
  }

  rollback(checkpoint: number): void {
    this.nativeRowsVersion++;
    this.chain.rollback(checkpoint);
  }

  release(checkpoint: number): void {
    this.chain.release(checkpoint);
  }

  commit(): void {
    this.chain.commit();
  }

  commitBlock(blockNum: number, irreversibleNum: number): void {
    const reversible = blockNum > irreversibleNum;
    // A chain whose every block is irreversible at once (one producer) keeps no records.
    const holding = this.environment.reversibleBlocks().length > 0;
    this.chain.commit(reversible || holding ? { keepAs: reversible ? blockNum : undefined, forgetThrough: irreversibleNum } : undefined);
  }

  revertBlock(blockNum: number): void {
    if (this.chainOverlay.checkpointDepth > 0 || !this.chainOverlay.isEmpty()) {
      throw new TsibaseError('DB_UNCOMMITTED_WRITES', `block ${blockNum} cannot be reverted while the chain databases have uncommitted writes`);
    }
    this.nativeRowsVersion++;
    this.environment.revertBlock(blockNum);
  }

  reversibleBlocks(): readonly number[] {
    return this.environment.reversibleBlocks();
  }

  abort(): void {
    this.nativeRowsVersion++;
    this.chain.abort();
  }

  /**
   * Copies the committed state (every persisted database, the block undo records) into the
   * empty `directory`, which LmdbStore.open then opens: a fork of this store. The session
   * databases, held in memory, are not copied. Nothing may be uncommitted (DB_UNCOMMITTED_WRITES).
   */
  copyTo(directory: string): Promise<void> {
    if (this.chainOverlay.checkpointDepth > 0 || !this.chainOverlay.isEmpty() || !this.subjectiveOverlay.isEmpty()) {
      throw new TsibaseError('DB_UNCOMMITTED_WRITES', 'the store cannot be copied while it has uncommitted writes');
    }
    return this.environment.copyTo(directory);
  }

  /** Closes LMDB; uncommitted writes are dropped. */
  close(): Promise<void> {
    this.chainOverlay.clear();
    this.subjectiveOverlay.clear();
    return this.environment.close();
  }

  protected committed(db: number): CommittedTable {
    return this.committedTables[db]!;
  }

  private noteWrite(db: number, key: Uint8Array): void {
    if (db === DbId.native && isCachedNativeRow(key)) this.nativeRowsVersion++;
  }

  protected overlayOf(db: number): WriteOverlay {
    const overlay = this.overlays[db];
    if (overlay !== undefined) return overlay;
    throw notPersisted(db);
  }
}
