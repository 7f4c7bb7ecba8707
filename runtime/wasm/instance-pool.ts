import type { MutableGlobal } from './admission/index.js';
import type { WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';
import { InstanceRestorer } from './instance-restorer.js';
import type { InstanceHome, LinkedInstance, PoolPlace } from './linked-instance.js';

const MAX_IDLE = 8;

/**
 * Idle instances of one module, reset to their fresh state before reuse. A new instance costs an
 * instantiation (tens of µs in V8, more with a new memory); a reset costs rewriting the start-up
 * memory. The reset is
 * exact: admission guarantees the state is memory plus mutable globals (all exported), and an
 * instance whose memory grew is dropped instead of reused.
 */
export class InstancePool implements InstanceHome {
  private readonly idle: LinkedInstance[] = [];
  private restorer: InstanceRestorer | undefined;
  private fuel = 0;

  constructor(private readonly globals: readonly MutableGlobal[]) {}

  /** Fuel the module's start code used; a reused instance is charged the same, so fuel never depends on the pool. */
  get startFuel(): number {
    return this.fuel;
  }

  /**
   * Takes a just-created instance, with the memory it imports, into the pool's care: the first
   * one's memory image becomes the start-up image, and each one's globals are recorded while it
   * is fresh. Returns its place in the pool.
   */
  adopt(instance: WasmInstanceObject, memory: WasmMemory, startFuel: number): PoolPlace {
    if (!this.restorer) {
      const bytes = new Uint8Array(memory.buffer);
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      this.restorer = new InstanceRestorer(this.globals, bytes.subarray(0, end), bytes.length);
      this.fuel = startFuel;
    }
    return { restore: this.restorer.attach(instance, memory), home: this };
  }

  /** An idle instance reset to its fresh state, or undefined. */
  take(): LinkedInstance | undefined {
    for (let linked = this.idle.pop(); linked; linked = this.idle.pop()) {
      if (linked.reset()) return linked;
    }
    return undefined;
  }

  /** Bytes of the linear memories of the idle instances. */
  idleMemoryBytes(): number {
    let bytes = 0;
    for (const linked of this.idle) bytes += linked.memoryBytes();
    return bytes;
  }

  give(linked: LinkedInstance): boolean {
    if (this.idle.length >= MAX_IDLE) return false;
    this.idle.push(linked);
    return true;
  }
}
