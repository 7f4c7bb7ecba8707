import type { Caller } from '../host-state.js';
import type { ImportGroup } from './import-group.js';

// host-abi §2: data-returning imports leave their result in V (and K); the guest copies it out.
export function resultImports(host: Caller): ImportGroup {
  return {
    getResult(dest: number, cap: number, offset: number): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      const value = inst.value;
      const start = offset >>> 0;
      if (start < value.length) inst.write(dest, value, start, Math.min(cap >>> 0, value.length - start), 'getResult');
      return value.length;
    },
    getKey(dest: number, cap: number): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      const key = inst.key;
      inst.write(dest, key, 0, Math.min(cap >>> 0, key.length), 'getKey');
      return key.length;
    },
  };
}
