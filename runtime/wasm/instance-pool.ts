import type { MutableGlobal } from './admission/index.js';
import type { WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';
import { InstanceRestorer, type RestoreInstance } from './instance-restorer.js';

const MAX_IDLE = 8;

/**
 * Idle instances of one module, reset to their fresh state before reuse. A fresh instance costs
 * a new memory (tens of µs in V8); a reset costs rewriting the start-up memory. The reset is
 * exact: admission guarantees the state is memory plus mutable globals (all exported), and an
 * instance whose memory grew is dropped instead of reused.
 */
export class InstancePool {
  private readonly idle: WasmInstanceObject[] = [];
  private restorer: InstanceRestorer | undefined;
  /** Fuel the module's start code used; a reused instance is charged the same, so fuel never depends on the pool. */
  private startFuel = 0;
  private readonly restores = new WeakMap<WasmInstanceObject, RestoreInstance>();

  constructor(private readonly globals: readonly MutableGlobal[]) {}

  /**
   * Takes a just-created instance into the pool's care: the first one's memory image becomes the
   * start-up image, and each one's globals are recorded while it is fresh.
   */
  adopt(instance: WasmInstanceObject, startFuel: number): void {
    const memory = instance.exports.memory as WasmMemory | undefined;
    if (!memory) return;
    if (!this.restorer) {
      const bytes = new Uint8Array(memory.buffer);
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      this.restorer = new InstanceRestorer(this.globals, bytes.subarray(0, end), bytes.length);
      this.startFuel = startFuel;
    }
    this.restores.set(instance, this.restorer.attach(instance));
  }

  /** An idle instance reset to its fresh state with the start fuel to charge for it, or undefined. */
  take(): { instance: WasmInstanceObject; startFuel: number } | undefined {
    for (let instance = this.idle.pop(); instance; instance = this.idle.pop()) {
      if (this.restores.get(instance)!()) return { instance, startFuel: this.startFuel };
    }
    return undefined;
  }

  /** Bytes of the linear memories of the idle instances. */
  idleMemoryBytes(): number {
    let bytes = 0;
    for (const instance of this.idle) bytes += (instance.exports.memory as WasmMemory).buffer.byteLength;
    return bytes;
  }

  give(instance: WasmInstanceObject): void {
    if (this.restores.has(instance) && this.idle.length < MAX_IDLE) this.idle.push(instance);
  }
}
