// Module admission: what runs when a service's .wasm is deployed, before it is ever compiled.
//
// Contract
// - admitModule(bytes, options?) accepts MVP WebAssembly plus bulk memory, sign extension,
//   non-trapping float-to-int and fixed 128-bit SIMD, importing only host ABI functions
//   (host-api/abi/imports.ts) with their exact signatures, within the limits of docs/host-abi.md §10.
//   Anything else throws AdmissionError with a stable code (WASM_MALFORMED, WASM_INVALID,
//   WASM_FORBIDDEN_IMPORT, WASM_FORBIDDEN_FEATURE, WASM_LIMIT) and a message naming the reason.
// - The module's memory becomes an import from module `tsibase` (`memory`, the module's initial
//   size and its maximum capped), so the host supplies each instance's memory; pass it to
//   importObject (host-supplied-imports.ts, docs/host-abi.md §7).
// - The returned bytes are metered: every function charges fuel
//   (one unit per instruction, structure free, bulk memory one more per 64 bytes; charged per
//   region up front, so an early exit may pay for code it skipped, identically on every node), and
//   every frame (an upper-bound estimate) counts against a stack budget: functions that break the
//   cycles of calls, those the host calls and a few more reserve their frame plus the deepest
//   chain of the other functions they can call, which reserve nothing. The counters are two
//   mutable globals imported from module `tsibase` (`fuel` i64, `stack` i32, bytes left) shared
//   by all instances of one execution context.
// - Admission is compile time. Running metered code is the engine's: the run-time meter that keeps
//   the two counters, one per execution context, is ../execution-meter.ts.

export { admitModule, type AdmittedModule, type MutableGlobal } from './admit-module.js';
export { AdmissionError, type AdmissionErrorCode } from './admission-error.js';
export { DEFAULT_ADMISSION_OPTIONS, type AdmissionOptions } from './admission-options.js';
export { FUEL_IMPORT_NAME, STACK_IMPORT_NAME } from './metering/meter-imports.js';
export { HOST_SUPPLIED_MODULE, MEMORY_IMPORT_NAME, hostSuppliedImports, type MemoryLimits, type MeterCounters } from './host-supplied-imports.js';
