// A committed table held in memory: what the session database (66) has committed. It answers
// the same lookups LMDB does, so the store merges an overlay over it the same way, and it is
// gone when the process ends (docs/host-abi.md §4).

import { fromBinaryString, toBinaryString } from './binary-string.js';
import type { CommittedTable } from './ordered-lookup.js';
import { SortedKeys } from './sorted-keys.js';
import type { KvEntry } from './store.js';
import type { OverlayTable } from './write-overlay.js';

export class MemoryTable implements CommittedTable {
  private readonly values = new Map<string, Uint8Array>();
  private readonly order = new SortedKeys();

  /** Lands an overlay table's writes (tombstones remove). */
  apply(writes: OverlayTable): void {
    writes.order.forEach((key) => {
      const value = writes.values.get(key)!;
      const had = this.values.has(key);
      if (value === null) {
        if (had) this.order.delete(key);
        this.values.delete(key);
      } else {
        if (!had) this.order.insert(key);
        this.values.set(key, value);
      }
    });
  }

  get(key: Uint8Array, keyString = toBinaryString(key)): Uint8Array | undefined {
    return this.values.get(keyString);
  }

  first(start: Uint8Array, startString = toBinaryString(start)): KvEntry | undefined {
    return this.entry(this.order.ceiling(startString, true));
  }

  last(bound: Uint8Array | undefined, boundString = bound && toBinaryString(bound)): KvEntry | undefined {
    return this.entry(boundString === undefined ? this.order.last() : this.order.floor(boundString, false));
  }

  *ascending(start: Uint8Array): Iterator<KvEntry> {
    for (let key = this.order.ceiling(toBinaryString(start), true); key !== undefined; key = this.order.ceiling(key, false)) {
      yield this.entry(key)!;
    }
  }

  *descending(bound: Uint8Array | undefined): Iterator<KvEntry> {
    let key = bound === undefined ? this.order.last() : this.order.floor(toBinaryString(bound), false);
    for (; key !== undefined; key = this.order.floor(key, false)) yield this.entry(key)!;
  }

  private entry(key: string | undefined): KvEntry | undefined {
    return key === undefined ? undefined : { key: fromBinaryString(key), value: this.values.get(key)! };
  }
}

