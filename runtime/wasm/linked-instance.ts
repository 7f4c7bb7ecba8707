import type { WasmInstanceObject } from './admission/webassembly-api.js';
import type { Caller } from './host-state.js';
import type { RestoreInstance } from './instance-restorer.js';

/** Where an instance goes when its context ends: its module's pool of idle instances. */
export interface InstanceHome {
  give(linked: LinkedInstance): void;
}

/** What a pooled instance has: how to put it back in its fresh state, and the pool it returns to. */
export interface PoolPlace {
  readonly restore: RestoreInstance;
  readonly home: InstanceHome;
}

/**
 * A wasm instance and the Caller its host imports were linked to. They are made together and
 * stay together for the instance's life: a pooled instance keeps its imports, so its Caller.
 */
export class LinkedInstance {
  constructor(
    readonly instance: WasmInstanceObject,
    readonly caller: Caller,
    /** Undefined when the instance is not pooled. */
    private readonly place?: PoolPlace,
  ) {}

  /** Puts the instance back in its fresh state; false if it cannot be (or is not pooled). */
  reset(): boolean {
    return this.place?.restore() ?? false;
  }

  /** The instance leaves its context: its imports reach no state until it is attached again, and it goes home. */
  release(): void {
    this.caller.detach();
    this.place?.home.give(this);
  }
}
