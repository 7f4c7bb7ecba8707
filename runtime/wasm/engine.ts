import { bytesToHex } from '../../host-api/encoding/hex.js';
import { admitModule, type AdmissionOptions } from './admission/index.js';
import { ModuleCache } from './module-cache.js';
import { WasmModuleObject, WebAssemblyJs } from './admission/webassembly-api.js';

export interface EngineOptions {
  /** Compiled modules kept (least recently used evicted). */
  cacheCapacity?: number;
  admission?: AdmissionOptions;
  /**
   * false runs admitted code without the metering rewrite: no fuel or stack bounds. Only for
   * measuring what metering costs (bench/host); a node always meters.
   */
  metering?: boolean;
}

/**
 * Compiles service code once per code hash: admission (validation, memory cap, metering) and
 * V8 compilation happen on first use; later contexts reuse the compiled module.
 */
export class Engine {
  private readonly cache: ModuleCache;
  private readonly admission: AdmissionOptions;
  private readonly metering: boolean;

  constructor(options: EngineOptions = {}) {
    this.cache = new ModuleCache(options.cacheCapacity);
    this.admission = options.admission ?? {};
    this.metering = options.metering ?? true;
  }

  /** The compiled, metered module of `code`; `codeHash` is SHA-256 of `code`. */
  module(codeHash: Uint8Array, code: () => Uint8Array): WasmModuleObject {
    const key = bytesToHex(codeHash);
    let module = this.cache.get(key);
    if (!module) {
      const bytes = code();
      const admitted = admitModule(bytes, this.admission);
      module = new WebAssemblyJs.Module(this.metering ? admitted.bytes : bytes);
      this.cache.set(key, module);
    }
    return module;
  }

  get cachedModules(): number {
    return this.cache.size;
  }
}
