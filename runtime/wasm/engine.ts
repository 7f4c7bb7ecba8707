import { toBinaryString } from '../db/binary-string.js';
import {
  admitModule, createMeterGlobals, meterImportObject,
  type AdmissionOptions, type MeterGlobals,
} from './admission/index.js';
import { WebAssemblyJs, type WasmInstanceObject, type WasmModuleObject } from './admission/webassembly-api.js';
import { HostError } from './errors.js';
import type { ExecutionContext } from './execution-context.js';
import { linkHostImports, type HostBinding } from './linker.js';
import { InstancePool } from './instance-pool.js';
import { ModuleCache } from './module-cache.js';

export interface EngineOptions {
  /** Compiled modules kept (least recently used evicted). */
  cacheCapacity?: number;
  admission?: AdmissionOptions;
  /**
   * false runs admitted code without the metering rewrite: no fuel or stack bounds. Only for
   * measuring what metering costs (bench/host); a node always meters.
   */
  metering?: boolean;
  /** false creates every instance afresh instead of resetting idle ones (for measurements). */
  pooling?: boolean;
}

/** A compiled module and its pool of idle instances. */
interface CompiledCode {
  readonly module: WasmModuleObject;
  /** Undefined when instances of this module cannot be reset exactly (or pooling is off). */
  readonly pool: InstancePool | undefined;
  /** Size of the binary V8 compiled: the estimate of its machine code, whose size V8 does not tell. */
  readonly binaryBytes: number;
}

/**
 * Compiles service code once per code hash (admission, then V8) and instantiates it against one
 * import object: host functions that act on the running context, and one pair of meter globals
 * that the running context loads with its budget. Contexts run one at a time; a context started
 * from inside another (nested) restores the outer one's counters when it ends.
 */
export class Engine implements HostBinding {
  readonly meterGlobals: MeterGlobals = createMeterGlobals();
  private readonly cache: ModuleCache<CompiledCode>;
  private readonly admission: AdmissionOptions;
  private readonly metering: boolean;
  private readonly pooling: boolean;
  private readonly imports: Record<string, Record<string, unknown>>;
  private readonly running: ExecutionContext[] = [];

  constructor(options: EngineOptions = {}) {
    this.cache = new ModuleCache(options.cacheCapacity);
    this.admission = options.admission ?? {};
    this.metering = options.metering ?? true;
    this.pooling = options.pooling ?? true;
    this.imports = { env: linkHostImports(this), ...meterImportObject(this.meterGlobals) };
  }

  /** The context whose code is running now. */
  get context(): ExecutionContext {
    const ctx = this.running[this.running.length - 1];
    if (!ctx) throw new HostError('HOST_BAD_ARGUMENT', 'a host import was called outside an execution context');
    return ctx;
  }

  /** Runs `body` with `ctx` as the running context and its counters loaded. */
  run<T>(ctx: ExecutionContext, body: () => T): T {
    const { fuel, stack } = this.meterGlobals;
    // Only a nested context has an outer one whose counters it must give back.
    const outer = this.running.length > 0 ? { fuel: fuel.value, stack: stack.value } : undefined;
    this.running.push(ctx);
    ctx.loadCounters();
    try {
      return body();
    } finally {
      ctx.saveCounters();
      this.running.pop();
      if (outer) {
        fuel.value = outer.fuel;
        stack.value = outer.stack;
      }
    }
  }

  /**
   * An instance in its initial state (new memory, globals at their initial values): an idle
   * one reset, or a new one. Must run inside `run`: instantiation runs metered start code.
   * The pool, if any, takes the instance back once its context has ended.
   */
  instantiate(codeHash: Uint8Array, code: () => Uint8Array): { instance: WasmInstanceObject; pool: InstancePool | undefined } {
    const { module, pool } = this.compiled(codeHash, code);
    const reused = pool?.take();
    if (reused) {
      this.meterGlobals.fuel.value -= reused.startFuel;
      return { instance: reused.instance, pool };
    }
    const fuelBefore = this.meterGlobals.fuel.value;
    const instance = new WebAssemblyJs.Instance(module, this.imports);
    pool?.adopt(instance, fuelBefore - this.meterGlobals.fuel.value);
    return { instance, pool };
  }

  /**
   * Admits `code` when it is deployed, so that a module no node would run is never stored: the
   * verdict is admission's alone (the same on every node), and the compiled module is kept for
   * its first run. Throws AdmissionError when the module is refused.
   */
  admitCode(codeHash: Uint8Array, code: Uint8Array): void {
    this.compiled(codeHash, () => code);
  }

  /**
   * For the perf report: bytes of the linear memories the engine holds (those of idle pooled
   * instances; running ones belong to their contexts) and an estimate of its compiled code (the
   * size of the cached binaries: V8 reports no machine-code size per module).
   */
  memoryFigures(): { wasmMemory: number; wasmCode: number } {
    let wasmMemory = 0, wasmCode = 0;
    for (const { pool, binaryBytes } of this.cache.values()) {
      wasmMemory += pool?.idleMemoryBytes() ?? 0;
      wasmCode += binaryBytes;
    }
    return { wasmMemory, wasmCode };
  }

  private compiled(codeHash: Uint8Array, code: () => Uint8Array): CompiledCode {
    const key = toBinaryString(codeHash);
    let compiled = this.cache.get(key);
    if (!compiled) {
      const bytes = code();
      const admitted = admitModule(bytes, this.admission);
      const poolable = this.pooling && admitted.resettable;
      const binary = this.metering ? admitted.bytes : admitted.unmeteredBytes();
      compiled = {
        module: new WebAssemblyJs.Module(binary),
        pool: poolable ? new InstancePool(admitted.mutableGlobals) : undefined,
        binaryBytes: binary.length,
      };
      this.cache.set(key, compiled);
    }
    return compiled;
  }
}
