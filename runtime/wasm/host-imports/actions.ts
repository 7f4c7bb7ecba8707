import { ServiceAbort } from '../errors.js';
import type { ImportGroup } from './import-group.js';
import { appendConsole } from '../trace.js';
import { chargeHostCall } from './fuel-schedule.js';

const utf8 = new TextDecoder();

// The current action, calls to other services, return values, console and abort (docs/host-abi.md §3, §6).
export const actionImports: ImportGroup = {
  getCurrentAction: (host) => (): number => {
    const ctx = host.context;
    const { instance, packedAction } = ctx.frame;
    chargeHostCall(ctx.meter, 0);
    instance.setResult(packedAction);
    return packedAction.length;
  },
  call: (host) => (ptr: number, len: number, flags?: bigint): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const packed = inst.copy(ptr, len, 'call');
    chargeHostCall(ctx.meter, packed.length);
    const retval = ctx.call(packed, flags);
    inst.setResult(retval);
    return retval.length;
  },
  setRetval: (host) => (ptr: number, len: number): void => {
    const ctx = host.context;
    const frame = ctx.frame;
    const retval = frame.instance.copy(ptr, len, 'setRetval');
    chargeHostCall(ctx.meter, retval.length);
    frame.retval = retval;
    frame.instance.clearResult();
  },
  writeConsole: (host) => (ptr: number, len: number): void => {
    const ctx = host.context;
    const frame = ctx.frame;
    const text = frame.instance.view(ptr, len, 'writeConsole');
    chargeHostCall(ctx.meter, text.length);
    appendConsole(frame.trace, utf8.decode(text));
  },
  abortMessage: (host) => (ptr: number, len: number): never => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const message = inst.view(ptr, len, 'abortMessage');
    chargeHostCall(ctx.meter, message.length);
    throw new ServiceAbort(inst.name, utf8.decode(message));
  },
};
