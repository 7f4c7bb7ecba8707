import type { Store } from '../db/store.js';

const CAPACITY = 1024;

/**
 * Values decoded from native code and config rows, per store, dropped whenever the store's
 * nativeRowsVersion moves: every context of a block reads the same rows, so one read serves them
 * all until a setCode, a config change or a rollback.
 */
export class NativeRowCache<K, V> {
  private readonly stores = new WeakMap<Store, { version: number; readonly values: Map<K, V> }>();

  constructor(private readonly read: (store: Store, key: K) => V) {}

  get(store: Store, key: K): V {
    let cache = this.stores.get(store);
    if (!cache) this.stores.set(store, (cache = { version: store.nativeRowsVersion, values: new Map() }));
    if (cache.version !== store.nativeRowsVersion || cache.values.size >= CAPACITY) {
      cache.values.clear();
      cache.version = store.nativeRowsVersion;
    }
    if (cache.values.has(key)) return cache.values.get(key)!;
    const value = this.read(store, key);
    cache.values.set(key, value);
    return value;
  }
}
