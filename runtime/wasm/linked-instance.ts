import type { MemoryLimits } from './admission/index.js';
import type { WasmInstanceObject, WasmMemory } from './admission/webassembly-api.js';
import type { Caller } from './host-state.js';
import type { RestoreInstance } from './instance-restorer.js';
import type { TrapLocator } from './trap-location.js';

/** Where an instance goes when its context ends: its module's pool of idle instances. */
export interface InstanceHome {
  /** False when the pool has no room: the instance is dropped. */
  give(linked: LinkedInstance): boolean;
}

/** What a pooled instance has: how to put it back in its fresh state, and the pool it returns to. */
export interface PoolPlace {
  readonly restore: RestoreInstance;
  readonly home: InstanceHome;
}

/** Where the memory of a dropped instance goes: the engine's pool of zeroed memories. */
export interface MemoryHome {
  give(memory: WasmMemory, limits: MemoryLimits): void;
}

/** The memory an instance was given (its module imports it), the limits it was made with, and its home. */
export interface LentMemory {
  readonly memory: WasmMemory;
  readonly limits: MemoryLimits;
  readonly home: MemoryHome;
}

/**
 * A wasm instance and the Caller its host imports were linked to. They are made together and
 * stay together for the instance's life: a pooled instance keeps its imports, so its Caller.
 */
export class LinkedInstance {
  constructor(
    readonly instance: WasmInstanceObject,
    readonly caller: Caller,
    /** Where in the module's source a trap of this instance happened. */
    readonly traps: TrapLocator,
    /** Undefined when the instance is not pooled. */
    private readonly place: PoolPlace | undefined,
    /** Undefined when the module has no memory. */
    private readonly lent: LentMemory | undefined,
  ) {}

  /** Bytes of the instance's linear memory (grown ones included); 0 when it has none. */
  memoryBytes(): number {
    return this.lent?.memory.buffer.byteLength ?? 0;
  }

  /** Puts the instance back in its fresh state (but for the size of a memory that grew); only pooled instances are reset. */
  reset(): void {
    this.place?.restore();
  }

  /**
   * The instance leaves its context: its imports reach no state until it is attached again, and
   * it goes home; one that its pool does not keep never runs again, so its memory serves a new
   * instance. Only the first release after an attach counts: a memory is never given twice.
   */
  release(): void {
    if (!this.caller.attached) return;
    this.caller.detach();
    if (this.place?.home.give(this)) return;
    if (this.lent) this.lent.home.give(this.lent.memory, this.lent.limits);
  }
}
