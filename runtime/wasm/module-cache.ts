// Compiled code keyed by code hash, least recently used evicted first. Compiling is the
// expensive step (admission + V8 compile); instantiation happens per execution context.

interface Entry<T> {
  readonly value: T;
  lastUse: number;
}

export class ModuleCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** A use counter instead of reordering the map on every hit: lookups stay one Map.get. */
  private uses = 0;

  constructor(private readonly capacity = 128) {}

  get(codeHash: string): T | undefined {
    const entry = this.entries.get(codeHash);
    if (!entry) return undefined;
    entry.lastUse = ++this.uses;
    return entry.value;
  }

  /** Every cached value, without counting as a use. */
  *values(): IterableIterator<T> {
    for (const entry of this.entries.values()) yield entry.value;
  }

  set(codeHash: string, value: T): void {
    this.entries.set(codeHash, { value, lastUse: ++this.uses });
    if (this.entries.size > this.capacity) {
      let oldest: [string, Entry<T>] | undefined;
      for (const e of this.entries) if (!oldest || e[1].lastUse < oldest[1].lastUse) oldest = e;
      this.entries.delete(oldest![0]);
    }
  }
}
