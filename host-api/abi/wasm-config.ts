import type { WasmConfig } from '../types/index.js';
import { Limits } from './databases.js';

/**
 * The wasm config a chain advertises (in its consensus, and in the wasm config rows transact's
 * finishBoot copies from it): the limits the host enforces, so the two cannot disagree.
 */
export const ENFORCED_WASM_CONFIG: WasmConfig = {
  numExecutionMemories: Limits.numExecutionMemories,
  vmOptions: {
    maxMutableGlobalBytes: Limits.maxMutableGlobalBytes,
    maxPages: Limits.maxMemoryPages,
    maxTableElements: Limits.maxTableElements,
    maxStackBytes: Limits.maxStackBytes,
  },
};
