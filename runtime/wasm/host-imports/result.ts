import type { ImportGroup } from './import-group.js';
import { chargeHostCall } from './fuel-schedule.js';

// docs/host-abi.md §2: data-returning imports leave their result in V (and K); the guest copies it out.
export const resultImports: ImportGroup = {
  getResult: (host) => (dest: number, cap: number, offset: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const value = inst.value;
    const start = offset >>> 0;
    const count = start < value.length ? Math.min(cap >>> 0, value.length - start) : 0;
    chargeHostCall(ctx.meter, count);
    inst.write(dest, value, start, count, 'getResult');
    return value.length;
  },
  getKey: (host) => (dest: number, cap: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    const key = inst.key;
    const count = Math.min(cap >>> 0, key.length);
    chargeHostCall(ctx.meter, count);
    inst.write(dest, key, 0, count, 'getKey');
    return key.length;
  },
};
