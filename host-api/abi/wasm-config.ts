import type { WasmConfig } from '../types/index.js';

// The wasm configs a chain's consensus carries (docs/p2p.md §3.4). They are psibase's values, so
// that headers and block ids match a psibase node's; the limits this host enforces are its own
// (docs/host-abi.md §10) and are not read from here.

/**
 * psibase's WasmConfigRow defaults: what transact's finishBoot writes to both wasm config rows,
 * and the proof wasm config a block compares with while that row is not written yet.
 */
export const DEFAULT_WASM_CONFIG: WasmConfig = {
  numExecutionMemories: 32,
  vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1024 * 1024 },
};

/** The wasm config of the consensus a new chain starts from: all zeros (psibase's BlockHeaderWasmConfig). */
export const GENESIS_WASM_CONFIG: WasmConfig = {
  numExecutionMemories: 0,
  vmOptions: { maxMutableGlobalBytes: 0, maxPages: 0, maxTableElements: 0, maxStackBytes: 0 },
};
