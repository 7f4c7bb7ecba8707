import { FUEL_IMPORT_NAME, STACK_IMPORT_NAME } from './metering/meter-imports.js';
import type { WasmGlobal, WasmMemory } from './webassembly-api.js';

// What an admitted module imports from the host besides the `env` functions: the meter globals
// (metering/meter-imports.ts) and its linear memory. Admission turns a module's own memory into
// an import (its initial size, its maximum capped), so the host decides where a new instance's
// memory comes from: a new one, or one recycled and zeroed back to its start-up size, which no
// instance can tell apart (docs/host-abi.md §7).

/** Import module of what the host supplies; guests may only import from `env`, so no name can clash. */
export const HOST_SUPPLIED_MODULE = 'tsibase';

/** The module's linear memory, imported under the limits admission wrote for it. */
export const MEMORY_IMPORT_NAME = 'memory';

/** A linear memory's size limits in 64 KiB pages: the descriptor `new WebAssembly.Memory` takes. */
export interface MemoryLimits {
  readonly initial: number;
  readonly maximum: number;
}

/** The meter globals an instance counts against (one pair per context, or an engine's shared pair). */
export interface MeterCounters {
  readonly fuel: WasmGlobal<bigint>;
  readonly stack: WasmGlobal<number>;
}

/** The import object entry of what the host supplies: the counters, and `memory` when the module has one. */
export function hostSuppliedImports(counters: MeterCounters, memory?: WasmMemory): Record<string, Record<string, unknown>> {
  const supplied: Record<string, unknown> = { [FUEL_IMPORT_NAME]: counters.fuel, [STACK_IMPORT_NAME]: counters.stack };
  if (memory) supplied[MEMORY_IMPORT_NAME] = memory;
  return { [HOST_SUPPLIED_MODULE]: supplied };
}
