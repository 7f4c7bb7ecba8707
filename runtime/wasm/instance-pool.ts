import type { WasmGlobal, WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';

/** The state of an instance right after instantiation: what a reused instance is reset to. */
export interface InstanceSnapshot {
  /** The memory up to its last non-zero byte; the rest of it is zero. */
  readonly memoryPrefix: Uint8Array;
  readonly memoryBytes: number;
  readonly globals: readonly (number | bigint)[];
  /** Fuel the module's start code used; a reused instance is charged the same, so fuel never depends on the pool. */
  readonly startFuel: bigint;
}

const MAX_IDLE = 8;

/**
 * Idle instances of one module, reset to their snapshot before reuse. A fresh instance costs a
 * new memory (tens of µs in V8); a reset costs rewriting the initial memory. The reset is exact:
 * admission guarantees the state is memory plus mutable globals (all exported), and an instance
 * whose memory grew is dropped instead of reused.
 */
export class InstancePool {
  private readonly idle: WasmInstanceObject[] = [];
  private snapshot: InstanceSnapshot | undefined;
  private readonly globals = new WeakMap<WasmInstanceObject, WasmGlobal<number | bigint>[]>();

  constructor(private readonly globalNames: readonly string[]) {}

  /** Records the state of a just-created instance, unless one is recorded already. */
  capture(instance: WasmInstanceObject, startFuel: bigint): void {
    if (this.snapshot) return;
    const memory = instance.exports.memory as WasmMemory | undefined;
    if (!memory) return;
    const bytes = new Uint8Array(memory.buffer);
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] === 0) end--;
    this.snapshot = {
      memoryPrefix: bytes.slice(0, end),
      memoryBytes: bytes.length,
      globals: this.globalsOf(instance).map((global) => global.value),
      startFuel,
    };
  }

  /** An idle instance reset to the snapshot with the start fuel to charge for it, or undefined. */
  take(): { instance: WasmInstanceObject; startFuel: bigint } | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    for (let instance = this.idle.pop(); instance; instance = this.idle.pop()) {
      const memory = new Uint8Array((instance.exports.memory as WasmMemory).buffer);
      if (memory.length !== snapshot.memoryBytes) continue;
      // Setting the prefix and zeroing the rest moves less memory than copying a whole image.
      memory.set(snapshot.memoryPrefix);
      memory.fill(0, snapshot.memoryPrefix.length);
      const globals = this.globalsOf(instance);
      for (let i = 0; i < globals.length; i++) globals[i]!.value = snapshot.globals[i]!;
      return { instance, startFuel: snapshot.startFuel };
    }
    return undefined;
  }

  /** Bytes of the linear memories of the idle instances. */
  idleMemoryBytes(): number {
    let bytes = 0;
    for (const instance of this.idle) bytes += (instance.exports.memory as WasmMemory).buffer.byteLength;
    return bytes;
  }

  /** The instance's mutable globals, looked up by name once per instance. */
  private globalsOf(instance: WasmInstanceObject): WasmGlobal<number | bigint>[] {
    let globals = this.globals.get(instance);
    if (!globals) {
      globals = this.globalNames.map((name) => instance.exports[name] as WasmGlobal<number | bigint>);
      this.globals.set(instance, globals);
    }
    return globals;
  }

  give(instance: WasmInstanceObject): void {
    if (this.snapshot && this.idle.length < MAX_IDLE) this.idle.push(instance);
  }
}
