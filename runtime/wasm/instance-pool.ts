import type { WasmGlobal, WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';

/** The state of an instance right after instantiation: what a reused instance is reset to. */
export interface InstanceSnapshot {
  readonly memory: Uint8Array;
  readonly globals: readonly (number | bigint)[];
  /** Fuel the module's start code used; a reused instance is charged the same, so fuel never depends on the pool. */
  readonly startFuel: bigint;
}

const MAX_IDLE = 8;

/**
 * Idle instances of one module, reset to their snapshot before reuse. A fresh instance costs a
 * new memory (tens of µs in V8); a reset costs one copy of the initial memory. The reset is exact:
 * admission guarantees the state is memory plus mutable globals (all exported), and an instance
 * whose memory grew is dropped instead of reused.
 */
export class InstancePool {
  private readonly idle: WasmInstanceObject[] = [];
  private snapshot: InstanceSnapshot | undefined;

  constructor(private readonly globalNames: readonly string[]) {}

  /** Records the state of a just-created instance, unless one is recorded already. */
  capture(instance: WasmInstanceObject, startFuel: bigint): void {
    if (this.snapshot) return;
    const memory = instance.exports.memory as WasmMemory | undefined;
    if (!memory) return;
    this.snapshot = {
      memory: new Uint8Array(memory.buffer).slice(),
      globals: this.globalNames.map((name) => (instance.exports[name] as WasmGlobal<number | bigint>).value),
      startFuel,
    };
  }

  /** An idle instance reset to the snapshot with the start fuel to charge for it, or undefined. */
  take(): { instance: WasmInstanceObject; startFuel: bigint } | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    for (let instance = this.idle.pop(); instance; instance = this.idle.pop()) {
      const memory = instance.exports.memory as WasmMemory;
      if (memory.buffer.byteLength !== snapshot.memory.length) continue;
      new Uint8Array(memory.buffer).set(snapshot.memory);
      for (let i = 0; i < this.globalNames.length; i++) {
        (instance.exports[this.globalNames[i]!] as WasmGlobal<number | bigint>).value = snapshot.globals[i]!;
      }
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

  give(instance: WasmInstanceObject): void {
    if (this.snapshot && this.idle.length < MAX_IDLE) this.idle.push(instance);
  }
}
