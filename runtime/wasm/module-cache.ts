import type { WasmModuleObject } from './admission/webassembly-api.js';

// Compiled modules keyed by code hash, least recently used evicted first. Compiling is the
// expensive step (admission + V8 compile); instantiation happens per execution context.

export class ModuleCache {
  private readonly modules = new Map<string, WasmModuleObject>();

  constructor(private readonly capacity = 128) {}

  get(codeHash: string): WasmModuleObject | undefined {
    const module = this.modules.get(codeHash);
    if (module) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.modules.delete(codeHash);
      this.modules.set(codeHash, module);
    }
    return module;
  }

  set(codeHash: string, module: WasmModuleObject): void {
    this.modules.delete(codeHash);
    this.modules.set(codeHash, module);
    while (this.modules.size > this.capacity) this.modules.delete(this.modules.keys().next().value!);
  }

  get size(): number {
    return this.modules.size;
  }
}
