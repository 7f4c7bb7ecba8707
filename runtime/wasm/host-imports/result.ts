import type { HostBinding, ImportGroup } from '../linker.js';

// host-abi §2: data-returning imports leave their result in V (and K); the guest copies it out.
export function resultImports(host: HostBinding): ImportGroup {
  return {
    getResult(dest: number, cap: number, offset: number): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      const value = inst.value;
      const start = offset >>> 0;
      if (start < value.length) {
        const n = Math.min(cap >>> 0, value.length - start);
        inst.view(dest, n, 'getResult').set(value.subarray(start, start + n));
      }
      return value.length;
    },
    getKey(dest: number, cap: number): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      const key = inst.key;
      const n = Math.min(cap >>> 0, key.length);
      inst.view(dest, n, 'getKey').set(key.subarray(0, n));
      return key.length;
    },
  };
}
