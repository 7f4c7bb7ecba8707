// The LMDB side of the store: one environment under a directory, one named database per
// persisted DbId, raw byte keys (LMDB's default memcmp order) and raw byte values.

import { open, type Database, type RootDatabase } from 'lmdb';
import { fromBinaryString } from './binary-string.js';
import { CommittedReadCache } from './committed-read-cache.js';
import type { CommittedTable } from './ordered-lookup.js';
import { lmdbNameOf, persistedDbIds } from './persisted-dbs.js';
import type { KvEntry } from './store.js';
import type { WriteOverlay } from './write-overlay.js';

type ByteDatabase = Database<Uint8Array, Uint8Array>;

export class LmdbEnvironment {
  private constructor(
    private readonly root: RootDatabase,
    private readonly databases: ByteDatabase[],
    private readonly tables: CommittedReadCache[],
  ) {}

  static open(directory: string): LmdbEnvironment {
    const root = open({
      path: directory,
      // Always a directory: lmdb-js would take a path with a dot in its last part for a file.
      noSubdir: false,
      maxDbs: 16,
      // A commit returns once its pages and meta page are synced (plain LMDB commit).
      // overlappingSync (lmdb-js' default on Linux) would sync after returning, and noSync never.
      overlappingSync: false,
      noSync: false,
      noMetaSync: false,
    });
    const databases: ByteDatabase[] = [];
    const tables: CommittedReadCache[] = [];
    for (const db of persistedDbIds) {
      const database: ByteDatabase = root.openDB({
        name: lmdbNameOf(db),
        keyEncoding: 'binary',
        encoding: 'binary',
      });
      databases[db] = database;
      tables[db] = new CommittedReadCache(new LmdbTable(database));
    }
    return new LmdbEnvironment(root, databases, tables);
  }

  committed(db: number): CommittedTable {
    return this.tables[db];
  }

  /** Applies every overlay entry in one durable write transaction: all of it lands, or none. */
  write(overlay: WriteOverlay): void {
    const written = new Set<number>();
    try {
      this.root.transactionSync(() => {
        overlay.forEachEntry((db, key, value) => {
          const database = this.databases[db];
          written.add(db);
          if (value === null) database.removeSync(fromBinaryString(key));
          else database.putSync(fromBinaryString(key), value);
        });
      });
    } finally {
      // Also after a failed commit: what the databases hold is LMDB's to say again.
      for (const db of written) this.tables[db].invalidate();
    }
  }

  close(): Promise<void> {
    return this.root.close();
  }
}

// The smallest key LMDB can hold (it has no empty key). lmdb-js ends every reverse range at a
// default key of [0], exclusively, so reverse ranges name it as an inclusive end instead.
const FIRST_KEY = Buffer.from([0]);

class LmdbTable implements CommittedTable {
  constructor(private readonly database: ByteDatabase) {}

  get(key: Uint8Array): Uint8Array | undefined {
    // LMDB holds no empty key (and refuses to look one up).
    return key.length === 0 ? undefined : this.database.get(key);
  }

  first(start: Uint8Array): KvEntry | undefined {
    return firstOf(this.ascending(start));
  }

  last(bound: Uint8Array | undefined): KvEntry | undefined {
    return firstOf(this.descending(bound));
  }

  ascending(start: Uint8Array): Iterator<KvEntry> {
    const range = this.database.getRange({ start: start.length > 0 ? start : FIRST_KEY });
    return range[Symbol.iterator]();
  }

  descending(bound: Uint8Array | undefined): Iterator<KvEntry> {
    if (bound?.length === 0) return [][Symbol.iterator]();
    const range = bound
      ? this.database.getRange({ start: bound, exclusiveStart: true, reverse: true, end: FIRST_KEY, inclusiveEnd: true })
      : this.database.getRange({ reverse: true, end: FIRST_KEY, inclusiveEnd: true });
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
