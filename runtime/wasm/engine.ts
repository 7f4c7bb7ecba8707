import { toBinaryString } from '../db/binary-string.js';
import { admitModule, hostSuppliedImports, type AdmissionOptions, type MemoryLimits } from './admission/index.js';
import { AdmittedCodeCache, type AdmittedCode } from './admitted-code-cache.js';
import { createMeterGlobals, type MeterGlobals } from './execution-meter.js';
import { WebAssemblyJs, type WasmInstanceObject, type WasmModuleObject } from './admission/webassembly-api.js';
import type { AbiGeneration, AnyHostImportName } from '../../host-api/abi/abi-generation.js';
import { Caller, type HostState } from './host-state.js';
import { linkHostImports } from './linker.js';
import { InstancePool } from './instance-pool.js';
import { LinkedInstance } from './linked-instance.js';
import { MemoryPool } from './memory-pool.js';
import { ModuleCache } from './module-cache.js';
import { TrapLocator } from './trap-location.js';

export interface EngineOptions {
  /** Compiled modules kept (least recently used evicted). */
  cacheCapacity?: number;
  admission?: AdmissionOptions;
  /** A folder where admitted code is kept across processes (admitted-code-cache.ts); none by default. */
  admittedCodeDir?: string;
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
  /** The host ABI generation the module is written for. */
  readonly abi: AbiGeneration;
  /** The host functions the module imports: all an instance of it is linked to. */
  readonly hostImports: readonly AnyHostImportName[];
  /** The limits of the memory the module imports; undefined when it has none. */
  readonly memory: MemoryLimits | undefined;
  readonly traps: TrapLocator;
}

/**
 * Compiles service code once per code hash (admission, then V8) and instantiates it: each
 * instance gets its own host imports, acting on the state its Caller is attached to, the one
 * pair of meter globals that the running context loads with its budget, and a zeroed memory
 * (recycled from a dropped instance when one is idle). The engine knows nothing of execution
 * contexts.
 */
export class Engine {
  readonly meterGlobals: MeterGlobals = createMeterGlobals();
  private readonly cache: ModuleCache<CompiledCode>;
  private readonly admission: AdmissionOptions;
  private readonly metering: boolean;
  private readonly pooling: boolean;
  private readonly memories = new MemoryPool();
  private readonly admittedCode: AdmittedCodeCache | undefined;

  constructor(options: EngineOptions = {}) {
    this.cache = new ModuleCache(options.cacheCapacity);
    this.admission = options.admission ?? {};
    this.metering = options.metering ?? true;
    this.pooling = options.pooling ?? true;
    this.admittedCode = options.admittedCodeDir === undefined ? undefined : new AdmittedCodeCache(options.admittedCodeDir, this.admission);
  }

  /**
   * An instance in its initial state (zeroed memory, globals at their initial values), its Caller
   * attached to `state`: an idle one reset, or a new one. Instantiation runs metered start code,
   * so the state's counters must be loaded; the start code reaches no state (its imports refuse),
   * so every new instance starts as the pool's reset ones do. With `acceptsGrown` (queries) the
   * instance may be a reset one whose memory grew in an earlier context: the same but for the
   * memory's size. `release()` the instance when its context ends.
   */
  instantiate(codeHash: Uint8Array, code: () => Uint8Array, state: HostState, acceptsGrown = false): LinkedInstance {
    const { module, pool, abi, hostImports, memory: limits, traps } = this.compiled(codeHash, code);
    const reused = pool?.take(acceptsGrown);
    if (reused) {
      // Charged as the start code was when the instance was made; running out shows at the next metered block.
      this.meterGlobals.fuelCounter.charge(pool!.startFuel);
      reused.caller.attach(state);
      return reused;
    }
    const caller = new Caller();
    const fuelBefore = this.meterGlobals.fuel.value;
    const lent = limits && { memory: this.memories.take(limits), limits, home: this.memories };
    const imports = { env: linkHostImports(caller, abi, hostImports), ...hostSuppliedImports(this.meterGlobals, lent?.memory) };
    const instance: WasmInstanceObject = new WebAssemblyJs.Instance(module, imports);
    // The pool resets memory and globals together: only an instance with a memory is pooled.
    const place = pool && lent && pool.adopt(instance, lent.memory, Number(fuelBefore - this.meterGlobals.fuel.value));
    caller.attach(state);
    return new LinkedInstance(instance, caller, traps, place, lent);
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
   * instances and the idle recycled memories; running ones belong to their contexts) and an
   * estimate of its compiled code (the size of the cached binaries: V8 reports no machine-code
   * size per module).
   */
  memoryFigures(): { wasmMemory: number; wasmCode: number } {
    let wasmMemory = this.memories.idleBytes(), wasmCode = 0;
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
      const admitted = this.admitted(code());
      const poolable = this.pooling && admitted.resettable;
      const module = new WebAssemblyJs.Module(admitted.bytes);
      compiled = {
        module,
        pool: poolable ? new InstancePool(admitted.mutableGlobals) : undefined,
        binaryBytes: admitted.bytes.length,
        abi: admitted.abi,
        hostImports: admitted.imports,
        memory: admitted.memory,
        traps: new TrapLocator(module),
      };
      this.cache.set(key, compiled);
    }
    return compiled;
  }

  /** `bytes` admitted: from the admitted-code cache when it holds them, else by admission (and kept there). */
  private admitted(bytes: Uint8Array): AdmittedCode {
    if (!this.metering) {
      const admitted = admitModule(bytes, this.admission);
      return { ...admitted, bytes: admitted.unmeteredBytes() };
    }
    const admit = () => admitModule(bytes, this.admission);
    return this.admittedCode ? this.admittedCode.getOrAdmit(bytes, admit) : admit();
  }
}
