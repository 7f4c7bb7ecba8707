import type { Caller } from '../host-state.js';
import type { ImportGroup } from './import-group.js';
import { backingDb, checkMaxPrefix, checkRead, checkWrite, putRow } from './db-access.js';
import { chargeHostCall } from './fuel-schedule.js';

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
