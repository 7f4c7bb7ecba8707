import { isWritableThroughHandle, openRefusal, storeDbOf, KvMode, MAX_HANDLES } from '../../../host-api/abi/handle-databases.js';
import { HostError } from '../errors.js';
import type { Caller, HostState } from '../host-state.js';
import { canRead, canWrite, describeHandle, withPrefix, type KvHandle } from '../handles/kv-handle.js';
import type { ServiceInstance } from '../service-instance.js';
import { backingDb, putRow, requireOpenView } from './db-access.js';
import { chargeHostCall } from './fuel-schedule.js';
import type { ImportGroup } from './import-group.js';

// The kv imports of the handle generation (docs/host-abi.md §12.2-12.4): databases are opened
// into handles that carry a key prefix and a mode, every key is relative to its handle's prefix,
// and handles pass between services across `call`.

function readable(ctx: HostState, inst: ServiceInstance, number: number, what: string): KvHandle {
  const handle = inst.handles.get(number, what);
  if (!canRead(handle)) throw new HostError('HOST_ACCESS_DENIED', `${what}: handle ${number >>> 0} (${describeHandle(handle)}) is not open for reading`);
  requireOpenView(ctx, what, handle.db);
  return handle;
}

function writable(ctx: HostState, inst: ServiceInstance, number: number, what: string): KvHandle {
  const handle = inst.handles.get(number, what);
  if (!canWrite(handle)) throw new HostError('HOST_ACCESS_DENIED', `${what}: handle ${number >>> 0} (${describeHandle(handle)}) is not open for writing`);
  if (!isWritableThroughHandle(handle.handleDb)) throw new HostError('HOST_ACCESS_DENIED', `${what}: database ${handle.handleDb} cannot be written by services`);
  requireOpenView(ctx, what, handle.db);
  return handle;
}

function checkPrefixSize(ctx: HostState, what: string, prefix: Uint8Array): void {
  const max = ctx.sizeLimits.maxKeySize;
  if (prefix.length > max) throw new HostError('HOST_BAD_ARGUMENT', `${what}: a prefix of ${prefix.length} bytes exceeds the key limit of ${max}`);
}

/** The key a lookup found, without the handle's prefix (what getKey gives the guest). */
function relativeKey(handle: KvHandle, key: Uint8Array): Uint8Array {
  return key.subarray(handle.prefix.length);
}

function orderedLookup(host: Caller, name: string, lookup: 'greaterEqual' | 'lessThan') {
  const keyWhat = `${name} key`;
  return (number: number, kptr: number, klen: number, match: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const handle = readable(ctx, inst, number, name);
    const key = inst.view(kptr, klen, keyWhat);
    if (match >>> 0 > key.length) throw new HostError('HOST_BAD_ARGUMENT', `${name}: match length ${match >>> 0} exceeds the key length ${key.length}`);
    const entry = backingDb(ctx, handle.db)[lookup](handle.db, withPrefix(handle.prefix, key), handle.prefix.length + (match >>> 0));
    chargeHostCall(ctx.meter, key.length + (entry ? entry.key.length + entry.value.length : 0), 1);
    return inst.resultOrNone(entry?.value, entry && relativeKey(handle, entry.key));
  };
}

/** The handles of a packed vector<u32> (exportHandles), read strictly. */
function handleNumbers(data: Uint8Array): number[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const size = data.length >= 4 ? view.getUint32(0, true) : -1;
  if (size < 0 || size % 4 !== 0 || data.length !== 4 + size) {
    throw new HostError('HOST_BAD_ARGUMENT', `exportHandles: expected a packed list of u32 handles, got ${data.length} bytes`);
  }
  const numbers: number[] = [];
  for (let pos = 4; pos < data.length; pos += 4) numbers.push(view.getUint32(pos, true));
  return numbers;
}

function packHandleNumbers(numbers: readonly number[]): Uint8Array {
  const out = new Uint8Array(4 + 4 * numbers.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 4 * numbers.length, true);
  numbers.forEach((n, i) => view.setUint32(4 + 4 * i, n, true));
  return out;
}

export const handleKvImports: ImportGroup = {
  kvOpen: (host) => (db: number, ptr: number, len: number, mode: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const prefix = inst.copy(ptr, len, 'kvOpen prefix');
    chargeHostCall(ctx.meter, prefix.length);
    checkPrefixSize(ctx, 'kvOpen', prefix);
    if (mode !== KvMode.read && mode !== KvMode.write && mode !== KvMode.readWrite) {
      throw new HostError('HOST_BAD_ARGUMENT', `kvOpen: mode ${mode >>> 0} is none of read (1), write (2), readWrite (3)`);
    }
    if (!inst.isPrivileged) {
      throw new HostError('HOST_ACCESS_DENIED', `kvOpen: '${inst.name}' is not privileged; services open databases through db::open or x-db::open`);
    }
    const dbNumber = db >>> 0;
    const refusal = openRefusal(ctx.mode, dbNumber, (mode & KvMode.read) !== 0, (mode & KvMode.write) !== 0);
    const storeDb = storeDbOf(dbNumber);
    if (refusal !== undefined || storeDb === undefined) throw new HostError('HOST_ACCESS_DENIED', `kvOpen: database ${dbNumber} in ${ctx.mode} mode: ${refusal}`);
    return inst.handles.open({ handleDb: dbNumber, db: storeDb, prefix, mode }, 'kvOpen');
  },
  kvOpenAt: (host) => (number: number, ptr: number, len: number, mode: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const base = inst.handles.get(number, 'kvOpenAt');
    const prefix = withPrefix(base.prefix, inst.view(ptr, len, 'kvOpenAt prefix'));
    chargeHostCall(ctx.meter, len >>> 0);
    checkPrefixSize(ctx, 'kvOpenAt', prefix);
    if ((base.mode & mode) !== mode) {
      throw new HostError('HOST_ACCESS_DENIED', `kvOpenAt: mode ${mode >>> 0} asks for more than handle ${number >>> 0} allows (mode ${base.mode})`);
    }
    return inst.handles.open({ handleDb: base.handleDb, db: base.db, prefix, mode }, 'kvOpenAt');
  },
  kvClose: (host) => (number: number): void => {
    const ctx = host.context;
    chargeHostCall(ctx.meter, 0);
    ctx.frame.instance.handles.close(number, 'kvClose');
  },
  exportHandles: (host) => (ptr: number, len: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const data = inst.view(ptr, len, 'exportHandles');
    chargeHostCall(ctx.meter, data.length);
    const numbers = handleNumbers(data);
    if (numbers.length > MAX_HANDLES) throw new HostError('HOST_LIMIT', `exportHandles: ${numbers.length} handles exported, at most ${MAX_HANDLES}`);
    ctx.handleTransfer.exported = numbers.map((n) => inst.handles.get(n, 'exportHandles'));
  },
  importHandles: (host) => (): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const received = ctx.handleTransfer.imported;
    chargeHostCall(ctx.meter, 4 * received.length);
    ctx.handleTransfer.imported = [];
    const packed = packHandleNumbers(inst.handles.add(received, 'importHandles'));
    inst.setResult(packed);
    return packed.length;
  },
  kvPut: (host) => (number: number, kptr: number, klen: number, vptr: number, vlen: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const handle = writable(ctx, inst, number, 'kvPut');
    putRow(ctx, inst, 'kvPut', handle.db, withPrefix(handle.prefix, inst.view(kptr, klen, 'kvPut key')), vptr, vlen);
  },
  kvRemove: (host) => (number: number, kptr: number, klen: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const handle = writable(ctx, inst, number, 'kvRemove');
    const key = inst.view(kptr, klen, 'kvRemove key');
    chargeHostCall(ctx.meter, key.length, 1);
    backingDb(ctx, handle.db).remove(handle.db, withPrefix(handle.prefix, key));
    inst.clearResult();
  },
  kvGet: (host) => (number: number, kptr: number, klen: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const handle = readable(ctx, inst, number, 'kvGet');
    const key = inst.view(kptr, klen, 'kvGet key');
    const value = backingDb(ctx, handle.db).get(handle.db, withPrefix(handle.prefix, key));
    chargeHostCall(ctx.meter, key.length + (value?.length ?? 0), 1);
    return inst.resultOrNone(value);
  },
  kvGreaterEqual: (host) => orderedLookup(host, 'kvGreaterEqual', 'greaterEqual'),
  kvLessThan: (host) => orderedLookup(host, 'kvLessThan', 'lessThan'),
  kvMax: (host) => (number: number, kptr: number, klen: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const handle = readable(ctx, inst, number, 'kvMax');
    const key = inst.view(kptr, klen, 'kvMax key');
    const entry = backingDb(ctx, handle.db).max(handle.db, withPrefix(handle.prefix, key));
    chargeHostCall(ctx.meter, key.length + (entry ? entry.key.length + entry.value.length : 0), 1);
    return inst.resultOrNone(entry?.value, entry && relativeKey(handle, entry.key));
  },
};
