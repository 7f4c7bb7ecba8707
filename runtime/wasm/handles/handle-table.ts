import { KvMode, MAX_HANDLES } from '../../../host-api/abi/handle-databases.js';
import { HostError } from '../errors.js';
import type { KvHandle } from './kv-handle.js';

/**
 * The kv handles of one service in one execution context (docs/host-abi.md §12.2): numbers are
 * indices, the lowest free one reused first, at most MAX_HANDLES in use.
 */
export class HandleTable {
  private readonly slots: (KvHandle | undefined)[] = [];

  /** Gives `handle` a number: the first free slot, or a new one within the limit. */
  open(handle: KvHandle, what: string): number {
    if (handle.mode === KvMode.none) throw new HostError('HOST_BAD_ARGUMENT', `${what}: a handle needs mode read (1), write (2) or readWrite (3)`);
    const free = this.slots.indexOf(undefined);
    if (free >= 0) {
      this.slots[free] = handle;
      return free;
    }
    this.requireRoom(1, what);
    return this.slots.push(handle) - 1;
  }

  /** Numbers for each of `handles`, in order: free slots first, then new ones. */
  add(handles: readonly KvHandle[], what: string): number[] {
    const numbers: number[] = [];
    let next = 0;
    for (const handle of handles) {
      while (next < this.slots.length && this.slots[next] !== undefined) next++;
      if (next === this.slots.length) {
        this.requireRoom(handles.length - numbers.length, what);
        for (const rest of handles.slice(numbers.length)) numbers.push(this.slots.push(rest) - 1);
        return numbers;
      }
      this.slots[next] = handle;
      numbers.push(next++);
    }
    return numbers;
  }

  close(number: number, what: string): void {
    this.get(number, what);
    this.slots[number >>> 0] = undefined;
  }

  /** The handle with this number; a closed or never opened one aborts. */
  get(number: number, what: string): KvHandle {
    const handle = this.slots[number >>> 0];
    if (!handle) throw new HostError('HOST_BAD_ARGUMENT', `${what}: ${number >>> 0} is not an open kv handle of this service`);
    return handle;
  }

  private requireRoom(count: number, what: string): void {
    if (this.slots.length + count > MAX_HANDLES) {
      throw new HostError('HOST_LIMIT', `${what}: a service may hold at most ${MAX_HANDLES} kv handles at once`);
    }
  }
}
