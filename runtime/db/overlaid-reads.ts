// The lookups of docs/host-abi.md §3 as a store answers them: each database's overlay of
// uncommitted writes merged over its committed content. The chain thread's LmdbStore and a query
// thread's SnapshotStore read alike; they differ in where the overlay and the committed content
// come from.

import { DbId } from '../../host-api/abi/databases.js';
import { eventKey } from '../../host-api/abi/keys.js';
import { TsibaseError } from '../../host-api/errors.js';
import { counterIndexOf, requireEventId } from './event-counters.js';
import { requireBytes, requireMatchLength } from './input-checks.js';
import * as lookup from './ordered-lookup.js';
import type { CommittedTable } from './ordered-lookup.js';
import type { ForwardRange, KvEntry, KvReader } from './store.js';
import type { WriteOverlay } from './write-overlay.js';

export abstract class OverlaidReads implements KvReader {
  /** The overlay of database `db`'s undo domain. */
  protected abstract overlayOf(db: number): WriteOverlay;
  /** What database `db` holds committed. */
  protected abstract committed(db: number): CommittedTable;

  get(db: number, key: Uint8Array): Uint8Array | undefined {
    requireBytes('key', key);
    return lookup.readValue(this.overlayOf(db).table(db), this.committed(db), key);
  }

  greaterEqual(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined {
    requireBytes('key', key);
    requireMatchLength(key, matchLength);
    return lookup.greaterEqual(this.overlayOf(db).table(db), this.committed(db), key, matchLength);
  }

  lessThan(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined {
    requireBytes('key', key);
    requireMatchLength(key, matchLength);
    return lookup.lessThan(this.overlayOf(db).table(db), this.committed(db), key, matchLength);
  }

  max(db: number, prefix: Uint8Array): KvEntry | undefined {
    requireBytes('prefix', prefix);
    return lookup.max(this.overlayOf(db).table(db), this.committed(db), prefix);
  }

  forward(db: number, range: ForwardRange): readonly KvEntry[] {
    requireBytes('key', range.start);
    requireMatchLength(range.start, range.matchLength);
    return lookup.forward(this.overlayOf(db).table(db), this.committed(db), range);
  }

  getSequential(db: number, id: bigint): Uint8Array | undefined {
    counterIndexOf(db);
    requireEventId(id);
    return this.get(db, eventKey(id));
  }
}

/** The error for a database no store keeps: the temporary one (a context's own) or an unknown id. */
export function notPersisted(db: number): TsibaseError {
  return db === DbId.temporary
    ? new TsibaseError('DB_NOT_PERSISTED', 'the temporary database (67) belongs to an execution context: use a TemporaryDb')
    : new TsibaseError('DB_UNKNOWN', `unknown database ${db}`);
}
