import { bytesToHex } from '../../host-api/encoding/hex.js';
import { admitModule, type AdmissionOptions } from './admission/index.js';
import { ModuleCache } from './module-cache.js';
import { WasmModuleObject, WebAssemblyJs } from './admission/webassembly-api.js';

/**
 * Compiles service code once per code hash: admission (validation, memory cap, metering) and
 * V8 compilation happen on first use; later contexts reuse the compiled module.
 */
export class Engine {
  private readonly cache: ModuleCache;
  private readonly admission: AdmissionOptions;

  constructor(options: { cacheCapacity?: number; admission?: AdmissionOptions } = {}) {
    this.cache = new ModuleCache(options.cacheCapacity);
    this.admission = options.admission ?? {};
  }

  /** The compiled, metered module of `code`; `codeHash` is SHA-256 of `code`. */
  module(codeHash: Uint8Array, code: () => Uint8Array): WasmModuleObject {
    const key = bytesToHex(codeHash);
    let module = this.cache.get(key);
    if (!module) {
      module = new WebAssemblyJs.Module(admitModule(code(), this.admission).bytes);
      this.cache.set(key, module);
    }
    return module;
  }

  get cachedModules(): number {
    return this.cache.size;
  }
}
