import { dbAccess } from '../../../host-api/abi/databases.js';
import { HostError } from '../errors.js';
import type { ImportGroup } from './import-group.js';
import { chargeHostCall } from './fuel-schedule.js';

// Event databases (docs/host-abi.md §9): append in transactions, read back by id in queries.

/** bytes 2..9 of a packed event (after the u16 fixed-area length) hold its service, little-endian. */
function eventService(value: Uint8Array): bigint | undefined {
  if (value.length < 10) return undefined;
  return new DataView(value.buffer, value.byteOffset + 2, 8).getBigUint64(0, true);
}

export const eventImports: ImportGroup = {
  putSequential: (host) => (db: number, ptr: number, len: number): bigint => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    if (dbAccess(ctx.mode, db).events !== 'append') {
      throw new HostError('HOST_ACCESS_DENIED', `putSequential: database ${db} does not take events in ${ctx.mode} mode`);
    }
    const value = inst.view(ptr, len, 'putSequential');
    // A privileged service may write another service's events, as it may send its actions: the
    // events service does so for services that emit through it (docs/host-abi.md §9, §12.7).
    const service = eventService(value);
    if (service !== inst.service && !(inst.isPrivileged && service !== undefined)) {
      throw new HostError('HOST_BAD_ARGUMENT', `putSequential: the event must name its own service '${inst.name}' as its first member`);
    }
    chargeHostCall(ctx.meter, value.length, 1);
    const id = ctx.store.putSequential(db, value);
    inst.clearResult();
    return id;
  },
  getSequential: (host) => (db: number, id: bigint): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    if (dbAccess(ctx.mode, db).events !== 'read') {
      throw new HostError('HOST_ACCESS_DENIED', `getSequential: database ${db} cannot be read by id in ${ctx.mode} mode`);
    }
    const event = ctx.store.getSequential(db, BigInt.asUintN(64, id));
    chargeHostCall(ctx.meter, event?.length ?? 0, 1);
    return inst.resultOrNone(event);
  },
};
