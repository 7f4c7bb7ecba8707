import { DbId, Limits, dbAccess, isPrefixedDb } from '../../../host-api/abi/databases.js';
import { configKey } from '../../../host-api/abi/keys.js';
import { ConfigRow } from '../../../host-api/types/native.js';
import { startsWithBytes } from '../../db/binary-string.js';
import type { KvReader, KvWriter, Store } from '../../db/store.js';
import { HostError } from '../errors.js';
import type { HostState, SizeLimits } from '../host-state.js';
import { NativeRowCache } from '../native-row-cache.js';
import type { ServiceInstance } from '../service-instance.js';
import { admitStoredCode } from './code-admission.js';
import { chargeHostCall } from './fuel-schedule.js';
import { validateNativeWrite } from './native-rows.js';

// The access rules of docs/host-abi.md §3-5 for the kv imports: which database a mode may touch, owner
// prefixes, privileges, open subjective views and size limits. Every refusal names the import,
// the database and the reason.

const PREFIX_BYTES = 8;

function denied(what: string, db: number, reason: string): HostError {
  return new HostError('HOST_ACCESS_DENIED', `${what}: database ${db} ${reason}`);
}

function startsWithOwner(key: Uint8Array, inst: ServiceInstance): boolean {
  const prefix = inst.ownerPrefix;
  return prefix !== null && startsWithBytes(key, prefix);
}

/** The reader/writer behind a database id: the context's temporary database or the store. */
export function backingDb(ctx: HostState, db: number): KvReader & KvWriter {
  return db === DbId.temporary ? ctx.temporary : ctx.store;
}

/** Subjective and session rows are reached only inside a checkout (docs/host-abi.md §4). */
export function requireOpenView(ctx: HostState, what: string, db: number): void {
  if ((db === DbId.subjective || db === DbId.session) && ctx.subjectiveViews.length === 0) {
    throw denied(what, db, 'needs an open subjective view (checkoutSubjective)');
  }
}

/** Checks a read (kvGet, lookups); `matchLength` is given for ordered lookups. */
export function checkRead(ctx: HostState, inst: ServiceInstance, what: string, db: number, key: Uint8Array, matchLength?: number): void {
  const rule = dbAccess(ctx.mode, db).read;
  if (rule === 'none' || (rule === 'privileged' && !inst.isPrivileged)) {
    throw denied(what, db, `is not readable in ${ctx.mode} mode`);
  }
  if (rule === 'own' && !startsWithOwner(key, inst)) {
    throw denied(what, db, `only allows reading keys that start with the service's own account ('${inst.name}')`);
  }
  requireOpenView(ctx, what, db);
  if (matchLength !== undefined) {
    if (matchLength >>> 0 > key.length) throw new HostError('HOST_BAD_ARGUMENT', `${what}: match length ${matchLength >>> 0} exceeds the key length ${key.length}`);
    if (isPrefixedDb(db) && matchLength >>> 0 < PREFIX_BYTES) {
      throw denied(what, db, `lookups must match at least the ${PREFIX_BYTES}-byte owner prefix (got ${matchLength >>> 0})`);
    }
  }
}

/** Checks a kvMax prefix: on prefixed databases it must hold at least the owner account. */
export function checkMaxPrefix(ctx: HostState, inst: ServiceInstance, db: number, prefix: Uint8Array): void {
  checkRead(ctx, inst, 'kvMax', db, prefix);
  if (isPrefixedDb(db) && prefix.length < PREFIX_BYTES) {
    throw denied('kvMax', db, `prefix must hold at least the ${PREFIX_BYTES}-byte owner account`);
  }
}

/** Checks a write (kvPut, kvRemove). */
export function checkWrite(ctx: HostState, inst: ServiceInstance, what: string, db: number, key: Uint8Array): void {
  const rule = dbAccess(ctx.mode, db).write;
  if (rule === 'none') throw denied(what, db, `is read-only or unavailable in ${ctx.mode} mode`);
  if ((rule === 'privileged' || rule === 'privileged-own') && !inst.isPrivileged) {
    throw denied(what, db, `can only be written by privileged services ('${inst.name}' is not)`);
  }
  if ((rule === 'own' || rule === 'privileged-own') && !startsWithOwner(key, inst)) {
    throw denied(what, db, `only allows writing keys that start with the service's own account ('${inst.name}')`);
  }
  requireOpenView(ctx, what, db);
}

const sizeLimits = new NativeRowCache<null, SizeLimits>((store) => {
  const row = store.get(DbId.native, configKey());
  return row ? ConfigRow.unpack(row) : { maxKeySize: Limits.maxKeySize, maxValueSize: Limits.maxValueSize };
});

/** The chain's key and value limits: the native config row, else the defaults of docs/host-abi.md §3. */
export function sizeLimitsOf(store: Store): SizeLimits {
  return sizeLimits.get(store, null);
}

/**
 * Writes a row whose access is checked: the chain's size limits, the fuel of the key and value
 * read from memory at (vptr, vlen), and for the native database a valid row at its key (whose
 * code, when it is new, admission accepts). Clears the result buffers.
 */
export function putRow(ctx: HostState, inst: ServiceInstance, what: string, db: number, key: Uint8Array, vptr: number, vlen: number): void {
  const limits = ctx.sizeLimits;
  if (key.length > limits.maxKeySize) throw new HostError('HOST_BAD_ARGUMENT', `${what}: key of ${key.length} bytes exceeds the limit of ${limits.maxKeySize}`);
  if (vlen >>> 0 > limits.maxValueSize) throw new HostError('HOST_BAD_ARGUMENT', `${what}: value of ${vlen >>> 0} bytes exceeds the limit of ${limits.maxValueSize}`);
  const value = inst.view(vptr, vlen, `${what} value`);
  chargeHostCall(ctx.meter, key.length + value.length, 1);
  const store = backingDb(ctx, db);
  if (db === DbId.native) admitStoredCode(ctx, inst.name, validateNativeWrite(key, value), () => store.get(db, key) !== undefined);
  store.put(db, key, value);
  inst.clearResult();
}
