import { ServiceAbort } from '../errors.js';
import { HostError } from '../errors.js';
import type { Caller } from '../host-state.js';
import type { ImportGroup } from './import-group.js';
import { appendConsole } from '../trace.js';

const utf8 = new TextDecoder();

// The current action, calls to other services, return values, console and abort (host-abi §3, §6).
export function actionImports(host: Caller): ImportGroup {
  return {
    getCurrentAction(): number {
      const ctx = host.context;
      const { instance, packedAction } = ctx.frame;
      instance.setResult(packedAction);
      return packedAction.length;
    },
    call(ptr: number, len: number, flags?: bigint): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      if (flags !== undefined && flags !== 0n) {
        throw new HostError('HOST_BAD_ARGUMENT', `call: flags ${flags} (subjective calls from objective code) are not supported by this node`);
      }
      const retval = ctx.call(inst.copy(ptr, len, 'call'));
      inst.setResult(retval);
      return retval.length;
    },
    setRetval(ptr: number, len: number): void {
      const ctx = host.context;
      const frame = ctx.frame;
      frame.retval = frame.instance.copy(ptr, len, 'setRetval');
      frame.instance.clearResult();
    },
    writeConsole(ptr: number, len: number): void {
      const ctx = host.context;
      const frame = ctx.frame;
      appendConsole(frame.trace, utf8.decode(frame.instance.view(ptr, len, 'writeConsole')));
    },
    abortMessage(ptr: number, len: number): never {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      throw new ServiceAbort(inst.name, utf8.decode(inst.view(ptr, len, 'abortMessage')));
    },
  };
}
