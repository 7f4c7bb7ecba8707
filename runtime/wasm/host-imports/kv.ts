import { Limits } from '../../../host-api/abi/databases.js';
import type { Caller } from '../host-state.js';
import type { ImportGroup } from './import-group.js';
import { backingDb, checkMaxPrefix, checkRead, checkWrite, putRow } from './db-access.js';
import { chargeHostCall } from './fuel-schedule.js';
import { HostError } from '../errors.js';
import type { KvEntry } from '../../db/store.js';

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

/**
 * kvRange's V (docs/host-abi.md §3): per entry a u32 key length, the key, a u32 value length, the
 * value, all little-endian.
 */
function packRange(entries: readonly KvEntry[]): Uint8Array {
  let length = 0;
  for (const { key, value } of entries) length += 8 + key.length + value.length;
  const out = new Uint8Array(length);
  let at = 0;
  const field = (bytes: Uint8Array) => {
    out[at] = bytes.length;
    out[at + 1] = bytes.length >>> 8;
    out[at + 2] = bytes.length >>> 16;
    out[at + 3] = bytes.length >>> 24;
    out.set(bytes, at + 4);
    at += 4 + bytes.length;
  };
  for (const { key, value } of entries) {
    field(key);
    field(value);
  }
  return out;
}

/**
 * The packed replies of walks the store answered from memory: committed-read-cache.ts hands the
 * same entries back for the same walk until a commit changes them, so a page read again (a
 * GraphQL page asked by many clients) is not packed again. Keyed by the entries themselves, the
 * reply goes when they do. Replies are only read (getResult copies them out).
 */
const packedWalks = new WeakMap<readonly KvEntry[], Uint8Array>();

function packedRange(entries: readonly KvEntry[]): Uint8Array {
  let packed = packedWalks.get(entries);
  if (packed === undefined) {
    packed = packRange(entries);
    packedWalks.set(entries, packed);
  }
  return packed;
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
    const upper = ulen >>> 0 === 0 ? undefined : inst.view(uptr, ulen, 'kvRange upper bound').slice();
    const entries = backingDb(ctx, db).forward(db, { start: key.slice(), matchLength: match >>> 0, upper, maxRows: maxRows >>> 0, maxBytes: Limits.maxRangeReplyBytes });
    const packed = packedRange(entries);
    chargeHostCall(ctx.meter, key.length + (upper?.length ?? 0) + packed.length, entries.length);
    inst.setResult(packed);
    return packed.length;
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
