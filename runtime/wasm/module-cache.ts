// Compiled code keyed by code hash, least recently used evicted first. Compiling is the
// expensive step (admission + V8 compile); instantiation happens per execution context.

export class ModuleCache<T> {
  private readonly modules = new Map<string, T>();

  constructor(private readonly capacity = 128) {}

  get(codeHash: string): T | undefined {
    const module = this.modules.get(codeHash);
    if (module) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.modules.delete(codeHash);
      this.modules.set(codeHash, module);
    }
    return module;
  }

  set(codeHash: string, module: T): void {
    this.modules.delete(codeHash);
    this.modules.set(codeHash, module);
    while (this.modules.size > this.capacity) this.modules.delete(this.modules.keys().next().value!);
  }

  get size(): number {
    return this.modules.size;
  }
}
