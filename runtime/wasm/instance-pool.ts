import type { MutableGlobal } from './admission/index.js';
import type { WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';
import { InstanceRestorer } from './instance-restorer.js';
import type { InstanceHome, LinkedInstance, PoolPlace } from './linked-instance.js';

const MAX_IDLE = 8;
/**
 * Grown instances kept up to this memory size: resetting one zeroes all of its memory (about
 * 15 µs per MiB on Node 20), while a new instance with a new memory costs some hundreds of µs.
 */
const MAX_GROWN_BYTES = 2 * 1024 * 1024;

/**
 * Idle instances of one module, reset to their fresh state before reuse. A new instance costs an
 * instantiation (tens of µs in V8, more with a new memory); a reset costs rewriting the start-up
 * memory. The reset is exact: admission guarantees the state is memory plus mutable globals (all
 * exported). An instance whose memory grew cannot be exact (memory does not shrink): it is reset
 * all the same (image, zeros, globals) and kept apart, for the contexts that accept a larger
 * memory than the module's start-up size (queries, docs/host-abi.md §7); the others never see one.
 */
export class InstancePool implements InstanceHome {
  private readonly idle: LinkedInstance[] = [];
  private readonly grown: LinkedInstance[] = [];
  private restorer: InstanceRestorer | undefined;
  private fuel = 0;
  private startBytes = 0;

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
      this.restorer = new InstanceRestorer(this.globals, bytes.subarray(0, end));
      this.fuel = startFuel;
      this.startBytes = bytes.length;
    }
    return { restore: this.restorer.attach(instance, memory), home: this };
  }

  /** An idle instance reset to its fresh state (`acceptsGrown`: or to it but with a grown memory), or undefined. */
  take(acceptsGrown: boolean): LinkedInstance | undefined {
    const linked = (acceptsGrown ? this.grown.pop() : undefined) ?? this.idle.pop();
    linked?.reset();
    return linked;
  }

  /** Bytes of the linear memories of the idle instances. */
  idleMemoryBytes(): number {
    let bytes = 0;
    for (const linked of [...this.idle, ...this.grown]) bytes += linked.memoryBytes();
    return bytes;
  }

  give(linked: LinkedInstance): boolean {
    const bytes = linked.memoryBytes();
    const list = bytes === this.startBytes ? this.idle : bytes <= MAX_GROWN_BYTES ? this.grown : undefined;
    if (!list || list.length >= MAX_IDLE) return false;
    list.push(linked);
    return true;
  }
}
