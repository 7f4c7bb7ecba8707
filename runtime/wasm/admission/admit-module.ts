import type { AbiGeneration, AnyHostImportName } from '../../../host-api/abi/abi-generation.js';
import { AdmissionError } from './admission-error.js';
import { DEFAULT_ADMISSION_OPTIONS, type AdmissionOptions } from './admission-options.js';
import { readModule } from './binary/module-reader.js';
import type { ExportKind } from './binary/module-types.js';
import type { ValueTypeCode } from './binary/wasm-constants.js';
import { checkHostImports } from './checks/host-imports.js';
import { checkResourceLimits } from './checks/resource-limits.js';
import { planMetering } from './metering/plan-metering.js';
import type { MemoryLimits } from './host-supplied-imports.js';
import { RESERVED_EXPORT_PREFIX, globalExportName, mutableGlobalIndices, rewriteModule } from './rewrite-module.js';
import { WebAssemblyJs } from './webassembly-api.js';

/** A mutable global of an admitted module, exported under a name admission gives it. */
export interface MutableGlobal {
  readonly exportName: string;
  readonly type: ValueTypeCode;
}

export interface AdmittedModule {
  /** The metered module, ready for `new WebAssembly.Module`; its memory is imported (host-supplied-imports.ts). */
  readonly bytes: Uint8Array;
  /** The host ABI generation the module is written for (docs/host-abi.md §12.1). */
  readonly abi: AbiGeneration;
  /** Host ABI functions (of that generation) the module imports, each once. */
  readonly imports: readonly AnyHostImportName[];
  readonly exports: readonly { readonly name: string; readonly kind: ExportKind }[];
  /** The limits of the memory the module imports, in 64 KiB pages; undefined when it has none. */
  readonly memory: MemoryLimits | undefined;
  /** The module's mutable globals, each under the export name admission gives it. */
  readonly mutableGlobals: readonly MutableGlobal[];
  /**
   * True when an instance's whole state is its memory and its mutable globals (no
   * memory.init, table.init or table.copy), so restoring those two recreates a fresh instance.
   */
  readonly resettable: boolean;
  /** The module without metering (memory imported, mutable globals exported): for measuring metering only. */
  readonly unmeteredBytes: () => Uint8Array;
}

/**
 * Checks a deployed module against the admitted subset of WebAssembly and the host ABI, then
 * returns it metered. Throws AdmissionError (see its codes) when the module is refused.
 */
export function admitModule(bytes: Uint8Array, options: AdmissionOptions = {}): AdmittedModule {
  const limits = { ...DEFAULT_ADMISSION_OPTIONS, ...options };
  const bulkShift = Math.log2(limits.bulkBytesPerFuel);
  if (!Number.isInteger(bulkShift) || bulkShift < 0) {
    throw new RangeError(`bulkBytesPerFuel must be a power of two, got ${limits.bulkBytesPerFuel}`);
  }
  if (bytes.length > limits.maxCodeBytes) {
    throw new AdmissionError('WASM_LIMIT', `module has ${bytes.length} bytes; at most ${limits.maxCodeBytes} are allowed`);
  }

  const module = readModule(bytes);
  const reserved = module.exports.find((e) => e.name.startsWith(RESERVED_EXPORT_PREFIX));
  if (reserved) {
    throw new AdmissionError('WASM_FORBIDDEN_FEATURE', `export name '${reserved.name}' uses the prefix ${RESERVED_EXPORT_PREFIX}, which is reserved for the host`);
  }
  const { abi, names: imports } = checkHostImports(module);
  const memoryMaximum = checkResourceLimits(module, limits);
  const { plans, stackCharges, entryPoints } = planMetering(module);
  confirmValid(bytes, 'module');

  const metered = rewriteModule(module, { metering: { plans, stackCharges, checksOnReturn: entryPoints, bulkShift }, memoryMaximum });
  confirmValid(metered, 'metered module');

  const memory = module.memories[0];
  return {
    bytes: metered,
    abi,
    imports,
    exports: module.exports.map(({ name, kind }) => ({ name, kind })),
    memory: memory && { initial: memory.initial, maximum: memoryMaximum },
    mutableGlobals: mutableGlobalIndices(module).map((index) => ({ exportName: globalExportName(index), type: module.globals[index]!.type })),
    resettable: plans.every((plan) => !plan.usesSegmentState),
    unmeteredBytes: () => rewriteModule(module, { memoryMaximum }),
  };
}

/** The engine's validator has the last word; compiling is only needed to get its reason. */
function confirmValid(bytes: Uint8Array, what: string): void {
  if (WebAssemblyJs.validate(bytes)) return;
  let reason = 'rejected by the engine';
  try {
    new WebAssemblyJs.Module(bytes);
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  throw new AdmissionError('WASM_INVALID', `${what} does not validate: ${reason}`);
}
