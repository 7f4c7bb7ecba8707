import type { Caller } from '../host-state.js';
import type { ImportGroup } from './import-group.js';
import { backingDb, checkMaxPrefix, checkRead, checkWrite, putRow } from './db-access.js';
import { chargeHostCall } from './fuel-schedule.js';
import { HostError } from '../errors.js';
import type { KvReader } from '../../db/store.js';

// The key-value imports of docs/host-abi.md §3. Results go to V (and K for the ordered lookups).

/** kvGreaterEqual / kvLessThan: the same checks around the store's lookup of that name. */
function orderedLookup(host: Caller, name: string, lookup: 'greaterEqual' | 'lessThan') {
  const keyWhat = `${name} key`;
  return (db: number, kptr: number, klen: number, match: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const key = inst.view(kptr, klen, keyWhat);
    checkRead(ctx, inst, name, db, key, match);
    const entry = backingDb(ctx, db)[lookup](db, key, match >>> 0);
    chargeHostCall(ctx.meter, key.length + (entry ? entry.key.length + entry.value.length : 0), 1);
    return inst.resultOrNone(entry?.value, entry?.key);
  };
}

/** The smallest key greater than `key`: `key` followed by 0x00. */
function successor(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}

/** Packs kvRange rows into a buffer that grows as they come (the store may reuse an entry's bytes). */
class RangeWriter {
  bytes = new Uint8Array(1024);
  length = 0;
  rows = 0;

  add(key: Uint8Array, value: Uint8Array): void {
    this.reserve(8 + key.length + value.length);
    this.field(key);
    this.field(value);
    this.rows++;
  }

  private field(bytes: Uint8Array): void {
    const at = this.length;
    const out = this.bytes;
    out[at] = bytes.length;
    out[at + 1] = bytes.length >>> 8;
    out[at + 2] = bytes.length >>> 16;
    out[at + 3] = bytes.length >>> 24;
    out.set(bytes, at + 4);
    this.length = at + 4 + bytes.length;
  }

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + more));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/**
 * The rows of kvRange (docs/host-abi.md §3) packed for V: per row a u32 key length, the key, a
 * u32 value length, the value. Stops at `maxRows` rows, at `upper` or at the end of the match.
 */
function rangeRows(reader: KvReader, db: number, start: Uint8Array, match: number, upper: Uint8Array | null, maxRows: number): RangeWriter {
  const out = new RangeWriter();
  let key = start;
  while (out.rows < maxRows) {
    const entry = reader.greaterEqual(db, key, match);
    if (!entry || (upper !== null && Buffer.compare(entry.key, upper) >= 0)) break;
    out.add(entry.key, entry.value);
    key = successor(entry.key);
  }
  return out;
}

export const kvImports: ImportGroup = {
  kvPut: (host) => (db: number, kptr: number, klen: number, vptr: number, vlen: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const key = inst.view(kptr, klen, 'kvPut key');
    checkWrite(ctx, inst, 'kvPut', db, key);
    putRow(ctx, inst, 'kvPut', db, key, vptr, vlen);
  },
  kvRemove: (host) => (db: number, kptr: number, klen: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const key = inst.view(kptr, klen, 'kvRemove key');
    checkWrite(ctx, inst, 'kvRemove', db, key);
    chargeHostCall(ctx.meter, key.length, 1);
    backingDb(ctx, db).remove(db, key);
    inst.clearResult();
  },
  kvGet: (host) => (db: number, kptr: number, klen: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const key = inst.view(kptr, klen, 'kvGet key');
    checkRead(ctx, inst, 'kvGet', db, key);
    const value = backingDb(ctx, db).get(db, key);
    chargeHostCall(ctx.meter, key.length + (value?.length ?? 0), 1);
    return inst.resultOrNone(value);
  },
  kvGreaterEqual: (host) => orderedLookup(host, 'kvGreaterEqual', 'greaterEqual'),
  kvLessThan: (host) => orderedLookup(host, 'kvLessThan', 'lessThan'),
  kvRange: (host) => (db: number, kptr: number, klen: number, match: number, uptr: number, ulen: number, maxRows: number): number => {
    const ctx = host.context;
    // Query-only, so that no transaction's fuel depends on it (docs/host-abi.md §3, §10.1).
    if (ctx.mode !== 'rpc') throw new HostError('HOST_ACCESS_DENIED', `kvRange is only available in rpc mode, not ${ctx.mode}`);
    const inst = ctx.frame.instance;
    const key = inst.view(kptr, klen, 'kvRange key');
    checkRead(ctx, inst, 'kvRange', db, key, match);
    const upper = ulen >>> 0 === 0 ? null : inst.view(uptr, ulen, 'kvRange upper bound').slice();
    const range = rangeRows(backingDb(ctx, db), db, key.slice(), match >>> 0, upper, maxRows >>> 0);
    chargeHostCall(ctx.meter, key.length + (upper?.length ?? 0) + range.length, range.rows);
    inst.setResult(range.bytes.subarray(0, range.length));
    return range.length;
  },
  kvMax: (host) => (db: number, kptr: number, klen: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const prefix = inst.view(kptr, klen, 'kvMax prefix');
    checkMaxPrefix(ctx, inst, db, prefix);
    const entry = backingDb(ctx, db).max(db, prefix);
    chargeHostCall(ctx.meter, prefix.length + (entry ? entry.key.length + entry.value.length : 0), 1);
    return inst.resultOrNone(entry?.value, entry?.key);
  },
};
