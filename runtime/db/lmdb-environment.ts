// The LMDB side of the store: one environment under a directory, one named database per
// persisted DbId, raw byte keys (LMDB's default memcmp order) and raw byte values.

import { open, type Database, type RootDatabase, type Transaction } from 'lmdb';
import { TsibaseError } from '../../host-api/errors.js';
import { fromBinaryString } from './binary-string.js';
import { packUndoRecord, unpackUndoRecord, type UndoEntry } from './block-undo-record.js';
import { CommittedReadCache } from './committed-read-cache.js';
import type { CommittedTable } from './ordered-lookup.js';
import { lmdbNameOf, persistedDbIds } from './persisted-dbs.js';
import type { KvEntry } from './store.js';
import type { WriteOverlay } from './write-overlay.js';

export type ByteDatabase = Database<Uint8Array, Uint8Array>;

/** The LMDB database of reversible blocks' undo records (docs/chain.md §1.6), keyed by u32 BE block number. */
const BLOCK_UNDO_NAME = 'blockUndo';
/**
 * The LMDB database holding one row, the number of write transactions committed so far (a u64
 * BE under key [0]): a reader on another thread tells by it which commit its snapshot shows
 * (docs/serving.md §10). It is no part of the chain's state.
 */
const COMMITS_NAME = 'commits';
const COMMITS_KEY = Buffer.from([0]);

/** The commit count a snapshot shows (0 before the first counted commit). */
export function commitCountOf(commits: ByteDatabase, transaction?: Transaction): number {
  const row = commits.get(COMMITS_KEY, transaction && { transaction });
  return row ? Number(Buffer.from(row).readBigUInt64BE(0)) : 0;
}

export interface StoreOptions {
  /**
   * Commits are on disk when they return (true, the default: a node's store). false leaves the
   * syncing to the operating system, for a temporary store a crash may lose (a test chain's).
   */
  readonly durable?: boolean;
}

/** What a block's commit does with block undo records, in the same LMDB transaction. */
export interface BlockUndoPlan {
  /** Keep what this commit overwrites as the undo record of this (reversible) block. */
  readonly keepAs?: number;
  /** Drop the records of blocks up to this one: they are irreversible now. */
  readonly forgetThrough?: number;
}

/** The root database of the environment in `directory` (the same flags on every thread that opens it). */
export function openRoot(directory: string, synced: boolean): RootDatabase {
  return open({
    path: directory,
    // Always a directory: lmdb-js would take a path with a dot in its last part for a file.
    noSubdir: false,
    maxDbs: 16,
    // A commit returns once its pages and meta page are synced (plain LMDB commit).
    // overlappingSync (lmdb-js' default on Linux) would sync after returning, and noSync never.
    overlappingSync: false,
    noSync: !synced,
    noMetaSync: !synced,
  });
}

/** One persisted database, or the commits row, as raw bytes. */
export function openBytes(root: RootDatabase, name: string): ByteDatabase {
  return root.openDB({ name, keyEncoding: 'binary', encoding: 'binary' });
}

export function openCommits(root: RootDatabase): ByteDatabase {
  return openBytes(root, COMMITS_NAME);
}

export class LmdbEnvironment {
  /** Write transactions committed (the commits row): moves with every commit and revert. */
  private commitCounter: number;

  private constructor(
    private readonly root: RootDatabase,
    private readonly databases: ByteDatabase[],
    private readonly tables: CommittedReadCache[],
    private readonly blockUndo: ByteDatabase,
    /** Block numbers with an undo record, ascending (the records' keys, kept in memory). */
    private readonly undoBlocks: number[],
    private readonly commits: ByteDatabase,
  ) {
    this.commitCounter = commitCountOf(commits);
  }

  static open(directory: string, options: StoreOptions = {}): LmdbEnvironment {
    const root = openRoot(directory, options.durable ?? true);
    const databases: ByteDatabase[] = [];
    const tables: CommittedReadCache[] = [];
    // One write transaction for all: a new environment creates each database, and a commit per
    // database would sync the disk once each.
    const { blockUndo, commits } = root.transactionSync(() => {
      for (const db of persistedDbIds) {
        const database = openBytes(root, lmdbNameOf(db));
        databases[db] = database;
        tables[db] = new CommittedReadCache(new LmdbTable(database));
      }
      return { blockUndo: openBytes(root, BLOCK_UNDO_NAME), commits: openCommits(root) };
    });
    const undoBlocks = [...blockUndo.getKeys()].map((key) => Buffer.from(key).readUInt32BE(0));
    return new LmdbEnvironment(root, databases, tables, blockUndo, undoBlocks, commits);
  }

  /** Write transactions committed so far: what the commits row of the newest snapshot says. */
  get commitCount(): number {
    return this.commitCounter;
  }

  committed(db: number): CommittedTable {
    return this.tables[db];
  }

  /**
   * Applies every overlay entry in one durable write transaction: all of it lands, or none.
   * With a plan, the same transaction keeps or drops block undo records.
   */
  write(overlay: WriteOverlay, plan: BlockUndoPlan = {}): void {
    const written = new Set<number>();
    const { keepAs, forgetThrough } = plan;
    let undoBlocks = this.undoBlocks;
    try {
      this.root.transactionSync(() => {
        const overwritten: UndoEntry[] | undefined = keepAs === undefined ? undefined : [];
        overlay.forEachEntry((db, binaryKey, value) => {
          const database = this.databases[db];
          const key = fromBinaryString(binaryKey);
          written.add(db);
          overwritten?.push({ db, key, previous: database.getBinary(key) });
          if (value === null) database.removeSync(key);
          else database.putSync(key, value);
        });
        if (forgetThrough !== undefined) {
          const forgotten = undoBlocks.filter((n) => n <= forgetThrough);
          for (const n of forgotten) this.blockUndo.removeSync(undoKey(n));
          if (forgotten.length > 0) undoBlocks = undoBlocks.filter((n) => n > forgetThrough);
        }
        if (overwritten) {
          if (undoBlocks.length > 0 && undoBlocks[undoBlocks.length - 1]! >= keepAs!) {
            throw new TsibaseError('DB_BLOCK_UNDO_ORDER', `block ${keepAs} cannot keep an undo record: block ${undoBlocks[undoBlocks.length - 1]} already has one`);
          }
          this.blockUndo.putSync(undoKey(keepAs!), packUndoRecord(overwritten));
          undoBlocks = [...undoBlocks, keepAs!];
        }
        this.countCommit();
      });
      this.commitCounter++;
      this.replaceUndoBlocks(undoBlocks);
    } catch (err) {
      // After a failed commit what the databases hold is LMDB's to say again.
      for (const db of written) this.tables[db].invalidate();
      throw err;
    }
    for (const db of written) this.tables[db].wrote(overlay.table(db)!.values);
  }

  /** Block numbers whose undo record is kept (reversible blocks), ascending. */
  reversibleBlocks(): readonly number[] {
    return this.undoBlocks;
  }

  /**
   * Puts back every row the newest reversible block overwrote and drops its record, in one
   * durable transaction: the state is again the one before that block.
   */
  revertBlock(blockNum: number): void {
    const newest = this.undoBlocks[this.undoBlocks.length - 1];
    if (newest !== blockNum) {
      throw new TsibaseError('DB_NO_BLOCK_UNDO', newest === undefined
        ? `block ${blockNum} cannot be reverted: no block is reversible`
        : `block ${blockNum} cannot be reverted: the newest reversible block is ${newest}`);
    }
    const written = new Set<number>();
    try {
      this.root.transactionSync(() => {
        const record = this.blockUndo.getBinary(undoKey(blockNum));
        if (!record) throw new TsibaseError('DB_NO_BLOCK_UNDO', `block ${blockNum} has no undo record`);
        const entries = unpackUndoRecord(record);
        for (let i = entries.length - 1; i >= 0; i--) {
          const { db, key, previous } = entries[i]!;
          const database = this.databases[db];
          if (!database) throw new TsibaseError('DB_BAD_UNDO_RECORD', `block ${blockNum}'s undo record names database ${db}`);
          written.add(db);
          if (previous === undefined) database.removeSync(key);
          else database.putSync(key, previous);
        }
        this.blockUndo.removeSync(undoKey(blockNum));
        this.countCommit();
      });
      this.commitCounter++;
      this.replaceUndoBlocks(this.undoBlocks.slice(0, -1));
    } finally {
      for (const db of written) this.tables[db].invalidate();
    }
  }

  /** Copies the environment as committed (LMDB's copy of a live environment) into the empty `directory`. */
  copyTo(directory: string): Promise<void> {
    return this.root.backup(directory, false);
  }

  close(): Promise<void> {
    return this.root.close();
  }

  /** Inside a write transaction: the commits row names the commit it makes. */
  private countCommit(): void {
    const row = Buffer.alloc(8);
    row.writeBigUInt64BE(BigInt(this.commitCounter + 1), 0);
    this.commits.putSync(COMMITS_KEY, row);
  }

  private replaceUndoBlocks(blocks: readonly number[]): void {
    if (blocks === this.undoBlocks) return;
    this.undoBlocks.length = 0;
    this.undoBlocks.push(...blocks);
  }
}

function undoKey(blockNum: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(blockNum, 0);
  return key;
}

// The smallest key LMDB can hold (it has no empty key). lmdb-js ends every reverse range at a
// default key of [0], exclusively, so reverse ranges name it as an inclusive end instead.
const FIRST_KEY = Buffer.from([0]);

/** A persisted database's committed content; read in `transaction` (a reader's snapshot) when given, else lmdb-js' current read. */
export class LmdbTable implements CommittedTable {
  private readonly options: { readonly transaction: Transaction } | undefined;

  constructor(private readonly database: ByteDatabase, transaction?: Transaction) {
    this.options = transaction === undefined ? undefined : { transaction };
  }

  get(key: Uint8Array): Uint8Array | undefined {
    // LMDB holds no empty key (and refuses to look one up).
    return key.length === 0 ? undefined : this.database.get(key, this.options);
  }

  first(start: Uint8Array): KvEntry | undefined {
    return firstOf(this.ascending(start));
  }

  last(bound: Uint8Array | undefined): KvEntry | undefined {
    return firstOf(this.descending(bound));
  }

  ascending(start: Uint8Array): Iterator<KvEntry> {
    const range = this.database.getRange({ ...this.options, start: start.length > 0 ? start : FIRST_KEY });
    return range[Symbol.iterator]();
  }

  descending(bound: Uint8Array | undefined): Iterator<KvEntry> {
    if (bound?.length === 0) return [][Symbol.iterator]();
    const range = bound
      ? this.database.getRange({ ...this.options, start: bound, exclusiveStart: true, reverse: true, end: FIRST_KEY, inclusiveEnd: true })
      : this.database.getRange({ ...this.options, reverse: true, end: FIRST_KEY, inclusiveEnd: true });
    return range[Symbol.iterator]();
  }
}

function firstOf(entries: Iterator<KvEntry>): KvEntry | undefined {
  try {
    const next = entries.next();
    return next.done ? undefined : next.value;
  } finally {
    entries.return?.();
  }
}
