// The temporary database (67): scratch space of one execution context, never persisted. The
// same lookups as the store, over an overlay with nothing committed beneath it.

import { TsibaseError } from '../../host-api/errors.js';
import { copyBytes, toBinaryString } from './binary-string.js';
import { DbId } from '../../host-api/abi/databases.js';
import { requireBytes, requireMatchLength, requireStorableKey } from './input-checks.js';
import * as lookup from './ordered-lookup.js';
import type { ForwardRange, KvEntry, KvReader, KvWriter } from './store.js';
import { WriteOverlay, type OverlayTable } from './write-overlay.js';

const nothingCommitted: lookup.CommittedTable = {
  get: () => undefined,
  first: () => undefined,
  last: () => undefined,
  ascending: () => [][Symbol.iterator](),
  descending: () => [][Symbol.iterator](),
};

export class TemporaryDb implements KvReader, KvWriter {
  private readonly overlay = new WriteOverlay();

  get(db: number, key: Uint8Array): Uint8Array | undefined {
    requireBytes('key', key);
    return lookup.readValue(this.table(db), nothingCommitted, key);
  }

  greaterEqual(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined {
    requireBytes('key', key);
    requireMatchLength(key, matchLength);
    return lookup.greaterEqual(this.table(db), nothingCommitted, key, matchLength);
  }

  lessThan(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined {
    requireBytes('key', key);
    requireMatchLength(key, matchLength);
    return lookup.lessThan(this.table(db), nothingCommitted, key, matchLength);
  }

  max(db: number, prefix: Uint8Array): KvEntry | undefined {
    requireBytes('prefix', prefix);
    return lookup.max(this.table(db), nothingCommitted, prefix);
  }

  forward(db: number, range: ForwardRange): readonly KvEntry[] {
    requireBytes('key', range.start);
    requireMatchLength(range.start, range.matchLength);
    return lookup.forward(this.table(db), nothingCommitted, range);
  }

  put(db: number, key: Uint8Array, value: Uint8Array): void {
    requireStorableKey(key);
    requireBytes('value', value);
    requireTemporary(db);
    this.overlay.write(DbId.temporary, toBinaryString(key), copyBytes(value));
  }

  remove(db: number, key: Uint8Array): void {
    requireBytes('key', key);
    requireTemporary(db);
    this.overlay.write(DbId.temporary, toBinaryString(key), null);
  }

  private table(db: number): OverlayTable | undefined {
    requireTemporary(db);
    return this.overlay.table(DbId.temporary);
  }
}

function requireTemporary(db: number): void {
  if (db !== DbId.temporary) {
    throw new TsibaseError('DB_NOT_TEMPORARY', `a TemporaryDb holds database 67 only, not ${db}`);
  }
}
