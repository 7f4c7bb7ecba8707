import type { KvHandle } from './kv-handle.js';

/**
 * Handles on their way across a `call` (docs/host-abi.md §12.4): what the running service
 * exported for the next call or return, and what it received at the last one. Both are moved at
 * every call entry and return: the export set becomes the other side's import set, and the
 * export set starts empty again.
 */
export class HandleTransfer {
  exported: readonly KvHandle[] = [];
  imported: readonly KvHandle[] = [];

  /** A call that changes the run mode starts or ends: nothing crosses it (docs/host-abi.md §12.4). */
  drop(): void {
    this.imported = [];
    this.exported = [];
  }

  /** Control passes to a callee, or back to its caller. */
  cross(): void {
    this.imported = this.exported;
    this.exported = [];
  }
}
