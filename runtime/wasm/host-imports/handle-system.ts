import { NONE_SIZE } from '../../../host-api/abi/databases.js';
import { HostError } from '../errors.js';
import { chargeHostCall } from './fuel-schedule.js';
import type { ImportGroup } from './import-group.js';
import { EBADF, cpuTimeLimit, privilegedOnly, sendOnSocket, subjectiveOnly } from './system.js';

// The system imports the handle generation names differently or adds (docs/host-abi.md §12.5):
// psibase HEAD's setMaxCpuTime, socketSend with flags, socketSetFlags, readFile and socketOpen.

const ENOSYS = 52;
const ENOTSUP = 58;
/** psibase's SocketFlags.autoClose: the one socket flag an HTTP request's socket has here. */
const AUTO_CLOSE = 2;

export const handleSystemImports: ImportGroup = {
  setMaxCpuTime: cpuTimeLimit('setMaxCpuTime'),
  socketSend: (host) => (fd: number, ptr: number, len: number, flags: number): number => {
    const ctx = host.context;
    // The sockets a service reaches here are HTTP requests', which take no send flags.
    if (flags !== 0) throw new HostError('HOST_BAD_ARGUMENT', `socketSend: flags ${flags >>> 0} are not valid for an HTTP request's socket (0 only)`);
    return sendOnSocket(ctx, ctx.frame.instance, 'socketSend', fd, ptr, len);
  },
  socketSetFlags: (host) => (fd: number, mask: number, value: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'socketSetFlags');
    privilegedOnly(inst, 'socketSetFlags');
    chargeHostCall(ctx.meter, 0);
    const sockets = ctx.sockets;
    if (!sockets || !sockets.isAnswerable(fd)) return EBADF;
    // notifyClose, recv and lockClose belong to sockets this node does not give services.
    if ((mask & ~AUTO_CLOSE) !== 0) return ENOTSUP;
    return (mask & AUTO_CLOSE) !== 0 ? sockets.autoClose(fd, (value & AUTO_CLOSE) !== 0) : 0;
  },
  readFile: (host) => (ptr: number, len: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'readFile');
    privilegedOnly(inst, 'readFile');
    const name = inst.view(ptr, len, 'readFile name');
    chargeHostCall(ctx.meter, name.length);
    // This node mounts no directories for services, so no file opens.
    inst.clearResult();
    return NONE_SIZE;
  },
  socketOpen: (host) => (ptr: number, len: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    subjectiveOnly(ctx, 'socketOpen');
    privilegedOnly(inst, 'socketOpen');
    chargeHostCall(ctx.meter, inst.view(ptr, len, 'socketOpen arguments').length);
    // Services cannot open outgoing connections on this node.
    return -ENOSYS;
  },
};
