// The store a query thread reads (docs/serving.md §10): a committed LMDB snapshot of the chain
// thread's store with a copy of that store's uncommitted writes laid over it, so that a query
// sees what it would see on the chain thread. It never writes: whatever would write, or read what
// only the chain thread holds (the session database, in its memory), throws QueryHandOff before
// any effect, and the chain thread runs the request from the start.

import { DbId } from '../../host-api/abi/databases.js';
import { TsibaseError } from '../../host-api/errors.js';
import { CommittedReadCache } from './committed-read-cache.js';
import { LmdbTable, commitCountOf, openBytes, openCommits, openRoot, type ByteDatabase } from './lmdb-environment.js';
import type { RootDatabase, Transaction } from 'lmdb';
import type { CommittedTable } from './ordered-lookup.js';
import { notPersisted, OverlaidReads } from './overlaid-reads.js';
import { chainDbIds, lmdbNameOf, persistedDbIds, subjectiveDbIds } from './persisted-dbs.js';
import type { Store, UndoScope } from './store.js';
import type { StoreLocation, ViewChanges } from './shared-reads.js';
import { WriteOverlay, type OverlayChanges } from './write-overlay.js';

/** Something a query thread cannot do (docs/serving.md §10): the chain thread runs the request instead. */
export class QueryHandOff extends TsibaseError {
  constructor(what: string) {
    super('QUERY_HANDOFF', `${what} runs only on the chain thread: the request is run there from its start`);
  }
}

/** The committed read of one snapshot: a read transaction and the tables read in it. */
interface Snapshot {
  readonly transaction: Transaction;
  readonly commits: number;
  readonly tables: CommittedTable[];
}

export class SnapshotStore extends OverlaidReads implements Store {
  readonly subjective: UndoScope;
  nativeRowsVersion = 0;
  /** Set when something handed the request off: the run's own error may have hidden the QueryHandOff. */
  handedOff: QueryHandOff | undefined;
  private readonly chainOverlay = new WriteOverlay();
  private readonly subjectiveOverlay = new WriteOverlay();
  private readonly overlays: WriteOverlay[] = [];
  /** The commits the chain thread's store has made, as its last changes said. */
  private commits = -1;
  private snapshot: Snapshot | undefined;

  private constructor(private readonly root: RootDatabase, private readonly databases: ByteDatabase[], private readonly commitsRow: ByteDatabase) {
    super();
    for (const db of chainDbIds) this.overlays[db] = this.chainOverlay;
    for (const db of subjectiveDbIds) this.overlays[db] = this.subjectiveOverlay;
    const refuse = (what: string) => () => this.handOff(what);
    this.subjective = {
      checkpoint: refuse('a subjective view'), rollback: refuse('a subjective rollback'), release: refuse('a subjective commit'),
      commit: refuse('a subjective commit'), abort: refuse('a subjective abort'),
    };
  }

  /** Opens the environment the chain thread's store is in (LmdbStore.open), to read it only. */
  static open(location: StoreLocation): SnapshotStore {
    const root = openRoot(location.directory, location.durable);
    const databases: ByteDatabase[] = [];
    for (const db of persistedDbIds) databases[db] = openBytes(root, lmdbNameOf(db));
    return new SnapshotStore(root, databases, openCommits(root));
  }

  /** Takes the chain thread's changes, in the order it made them: a new commit ends the snapshot read so far. */
  apply(changes: ViewChanges): void {
    if (changes.commits !== this.commits) this.endSnapshot();
    this.commits = changes.commits;
    this.mirror(this.chainOverlay, changes.chain);
    this.mirror(this.subjectiveOverlay, changes.subjective);
    // Code and config rows may be among them: what was decoded from them is read again.
    this.nativeRowsVersion++;
  }

  /**
   * Before a query: whether the snapshot shows the commit the chain thread last told of. LMDB
   * may already hold a later one (the chain thread committed again before this thread's read
   * began): then this thread cannot show the chain thread's state, and the request goes back.
   */
  ready(): boolean {
    this.handedOff = undefined;
    this.snapshot ??= this.beginSnapshot();
    return this.snapshot.commits === this.commits;
  }

  put(db: number): void {
    this.handOff(`a write to database ${db}`);
  }

  remove(db: number): void {
    this.handOff(`a removal from database ${db}`);
  }

  putSequential(db: number): bigint {
    this.handOff(`an event written to database ${db}`);
  }

  checkpoint(): number {
    this.handOff('a checkpoint of the chain databases');
  }

  rollback(): void {
    this.handOff('a rollback of the chain databases');
  }

  release(): void {
    this.handOff('a release of the chain databases');
  }

  commit(): void {
    this.handOff('a commit');
  }

  abort(): void {
    this.handOff('an abort');
  }

  commitBlock(): void {
    this.handOff('a block commit');
  }

  revertBlock(): void {
    this.handOff('a block revert');
  }

  reversibleBlocks(): readonly number[] {
    this.handOff('the reversible blocks');
  }

  /**
   * Ends the snapshot read (the next lookup begins another): an idle thread must not hold a read
   * transaction, which keeps LMDB from reusing the pages later commits free.
   */
  endSnapshot(): void {
    this.snapshot?.transaction.done();
    this.snapshot = undefined;
  }

  /** Ends the snapshot read; the environment stays open for the process's other threads. */
  close(): Promise<void> {
    this.endSnapshot();
    return Promise.resolve();
  }

  /** Records and throws the hand-off (a service's own error handling cannot hide it). */
  handOff(what: string): never {
    throw (this.handedOff = new QueryHandOff(what));
  }

  private beginSnapshot(): Snapshot {
    // lmdb-js shares one read transaction per thread and renews it when it sees fit: begin at the newest commit.
    this.root.resetReadTxn();
    const transaction = this.root.useReadTransaction();
    const tables: CommittedTable[] = [];
    for (const db of persistedDbIds) tables[db] = new CommittedReadCache(new LmdbTable(this.databases[db]!, transaction));
    return { transaction, commits: commitCountOf(this.commitsRow, transaction), tables };
  }

  private mirror(overlay: WriteOverlay, changes: OverlayChanges): void {
    if (changes.cleared) overlay.clear();
    for (const [db, key, value] of changes.rows) overlay.mirror(db, key, value);
  }

  protected committed(db: number): CommittedTable {
    return (this.snapshot ??= this.beginSnapshot()).tables[db]!;
  }

  protected overlayOf(db: number): WriteOverlay {
    const overlay = this.overlays[db];
    if (overlay !== undefined) return overlay;
    if (db === DbId.session) this.handOff('the session database (66), held in the chain thread\'s memory,');
    throw notPersisted(db);
  }
}
