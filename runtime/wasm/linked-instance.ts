import type { WasmInstanceObject } from './admission/webassembly-api.js';
import type { Caller } from './host-state.js';
import type { RestoreInstance } from './instance-restorer.js';

/** Where an instance goes when its context ends: its module's pool of idle instances. */
export interface InstanceHome {
  give(linked: LinkedInstance): void;
}

/**
 * A wasm instance and the Caller its host imports were linked to. They are made together and
 * stay together for the instance's life: a pooled instance keeps its imports, so its Caller.
 */
export class LinkedInstance {
  constructor(
    readonly instance: WasmInstanceObject,
    readonly caller: Caller,
    /** Puts the instance back in its fresh state (false if it cannot be); undefined when it is not pooled. */
    readonly restore: RestoreInstance | undefined,
    private readonly home: InstanceHome | undefined,
  ) {}

  /** The instance leaves its context: its imports reach no state until it is attached again, and it goes home. */
  release(): void {
    this.caller.detach();
    this.home?.give(this);
  }
}
