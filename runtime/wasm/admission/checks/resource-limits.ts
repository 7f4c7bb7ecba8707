import { AdmissionError } from '../admission-error.js';
import type { AdmissionOptions } from '../admission-options.js';
import type { WasmModule } from '../binary/module-types.js';
import { valueTypeSize } from '../binary/wasm-constants.js';

/**
 * Checks the limits of docs/host-abi.md §10 that the module declares (memory, table, mutable
 * globals) and returns the memory maximum to write: the declared one when it is below the cap
 * (the author's own bound keeps its meaning), else the cap.
 */
export function checkResourceLimits(module: WasmModule, limits: Required<AdmissionOptions>): number {
  const memory = module.memories[0];
  if (memory !== undefined && memory.initial > limits.maxMemoryPages) {
    throw new AdmissionError(
      'WASM_LIMIT',
      `memory starts at ${memory.initial} pages; at most ${limits.maxMemoryPages} pages (${limits.maxMemoryPages * 64} KiB) are allowed`,
    );
  }
  const table = module.tables[0];
  if (table !== undefined && table.initial > limits.maxTableElements) {
    throw new AdmissionError('WASM_LIMIT', `table has ${table.initial} elements; at most ${limits.maxTableElements} are allowed`);
  }
  const mutableGlobalBytes = module.globals.reduce((sum, g) => sum + (g.mutable ? valueTypeSize(g.type) : 0), 0);
  if (mutableGlobalBytes > limits.maxMutableGlobalBytes) {
    throw new AdmissionError(
      'WASM_LIMIT',
      `mutable globals take ${mutableGlobalBytes} bytes; at most ${limits.maxMutableGlobalBytes} are allowed`,
    );
  }
  return Math.min(memory?.maximum ?? limits.maxMemoryPages, limits.maxMemoryPages);
}
