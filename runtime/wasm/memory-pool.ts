import type { MemoryLimits } from './admission/index.js';
import { PAGE_BYTES } from './admission/binary/wasm-constants.js';
import { WebAssemblyJs, type WasmMemory } from './admission/webassembly-api.js';

/** Idle memories kept for one pair of limits. */
const MAX_IDLE_PER_LIMITS = 8;
/** Bytes of idle memory kept in all. */
const MAX_IDLE_BYTES = 32 * 1024 * 1024;
/**
 * Larger memories are not recycled: zeroing costs about 15 µs per MiB on Node 20, and a new
 * memory's reservation and first fault about 45 µs, so past 2 MiB a new one is the cheaper.
 */
const MAX_RECYCLED_PAGES = 32;

/**
 * Linear memories of instances the engine dropped, zeroed and kept for the next new instance whose
 * module imports a memory of the same limits, as wasmtime's pooling allocator keeps memory slots.
 * A new memory costs V8 an address-space reservation and the kernel a page-table setup and a fault
 * per page first touched: tens of µs, more than the whole instantiation of a small module besides.
 * A recycled memory costs zeroing its pages. Only a memory at its start-up size is kept, so what
 * an instance gets is exactly what a new memory would be: the same limits, the same size, all zero.
 */
export class MemoryPool {
  private readonly idle = new Map<number, WasmMemory[]>();
  private bytes = 0;

  /** A zeroed memory of `limits.initial` pages: a recycled one, or a new one. */
  take(limits: MemoryLimits): WasmMemory {
    const memory = this.idle.get(limitsKey(limits))?.pop();
    if (!memory) return new WebAssemblyJs.Memory(limits);
    this.bytes -= memory.buffer.byteLength;
    return memory;
  }

  /**
   * Takes back the memory of an instance that will never run again, zeroed, if it is still at
   * its start-up size, small enough and there is room; otherwise it is left to the garbage collector.
   */
  give(memory: WasmMemory, limits: MemoryLimits): void {
    const size = limits.initial * PAGE_BYTES;
    if (limits.initial > MAX_RECYCLED_PAGES || memory.buffer.byteLength !== size || this.bytes + size > MAX_IDLE_BYTES) return;
    const key = limitsKey(limits);
    let idle = this.idle.get(key);
    if (!idle) this.idle.set(key, (idle = []));
    if (idle.length >= MAX_IDLE_PER_LIMITS) return;
    new Uint8Array(memory.buffer).fill(0);
    idle.push(memory);
    this.bytes += size;
  }

  /** Bytes of the idle memories. */
  idleBytes(): number {
    return this.bytes;
  }
}

/** One number per pair of limits: both are at most 65536 pages. */
function limitsKey(limits: MemoryLimits): number {
  return limits.initial * 65537 + limits.maximum;
}
