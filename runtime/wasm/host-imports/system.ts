import { randomFillSync } from 'node:crypto';
import { isSubjectiveMode } from '../../../host-api/abi/databases.js';
import { HostError } from '../errors.js';
import type { HostState } from '../host-state.js';
import type { HostFunctionDefinition, ImportGroup } from './import-group.js';
import type { ServiceInstance } from '../service-instance.js';
import { chargeHostCall } from './fuel-schedule.js';

// Clock, randomness, CPU limit and sockets: only where they cannot break determinism.

const EINVAL = 28;
export const EBADF = 8;

export function subjectiveOnly(ctx: HostState, what: string): void {
  if (!isSubjectiveMode(ctx.mode)) throw new HostError('HOST_ACCESS_DENIED', `${what} is only available in rpc and callback modes, not ${ctx.mode}`);
}

export function privilegedOnly(inst: ServiceInstance, what: string): void {
  if (!inst.isPrivileged) throw new HostError('HOST_ACCESS_DENIED', `${what} needs a privileged service ('${inst.name}' is not)`);
}

// A context runs synchronously on the chain thread from start to end, so the time elapsed since
// it started is the CPU time it has used (getrusage per context costs tens of µs per query).
function cpuNanoseconds(ctx: HostState): bigint {
  return process.hrtime.bigint() - ctx.startedAt!;
}

/**
 * psibase's CPU timer for a context (setMaxTransactionTime here, setMaxCpuTime in the handle
 * generation). Every execution here is bounded by fuel instead, the same on every node, so the
 * privileged caller is checked and the limit has nothing to set.
 */
export function cpuTimeLimit(name: string): HostFunctionDefinition {
  return (host) => (_ns: bigint): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    privilegedOnly(inst, name);
    chargeHostCall(ctx.meter, 0);
    inst.clearResult();
  };
}

/** Records a reply (a packed HttpReply at ptr, len) on socket `fd`; 0 or an errno. */
export function sendOnSocket(ctx: HostState, inst: ServiceInstance, what: string, fd: number, ptr: number, len: number): number {
  subjectiveOnly(ctx, what);
  privilegedOnly(inst, what);
  // A view, not a copy: the reply is decoded (its fields copied out) before the import returns.
  const data = inst.view(ptr, len, what);
  chargeHostCall(ctx.meter, data.length);
  return ctx.sockets ? ctx.sockets.send(fd, data) : EBADF;
}

export const systemImports: ImportGroup = {
  clockTimeGet: (host) => (id: number, outPtr: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'clockTimeGet');
    let ns: bigint;
    switch (id) {
      case 0: ns = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6)); break;
      case 1: ns = process.hrtime.bigint(); break;
      case 2:
      case 3: ns = cpuNanoseconds(ctx); break;
      default: return EINVAL;
    }
    const out = inst.view(outPtr, 8, 'clockTimeGet');
    chargeHostCall(ctx.meter, out.length);
    new DataView(out.buffer, out.byteOffset, 8).setBigUint64(0, ns, true);
    inst.clearResult();
    return 0;
  },
  getRandom: (host) => (ptr: number, len: number): void => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'getRandom');
    const out = inst.view(ptr, len, 'getRandom');
    chargeHostCall(ctx.meter, out.length);
    randomFillSync(out);
  },
  setMaxTransactionTime: cpuTimeLimit('setMaxTransactionTime'),
  socketSend: (host) => (fd: number, ptr: number, len: number): number => {
    const ctx = host.context;
    return sendOnSocket(ctx, ctx.frame.instance, 'socketSend', fd, ptr, len);
  },
  socketAutoClose: (host) => (fd: number, on: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'socketAutoClose');
    privilegedOnly(inst, 'socketAutoClose');
    chargeHostCall(ctx.meter, 0);
    return ctx.sockets ? ctx.sockets.autoClose(fd, on !== 0) : EBADF;
  },
};
