// Module admission: what runs when a service's .wasm is deployed, before it is ever compiled.
//
// Contract
// - admitModule(bytes, options?) accepts MVP WebAssembly plus bulk memory, sign extension,
//   non-trapping float-to-int and fixed 128-bit SIMD, importing only host ABI functions
//   (host-api/abi/imports.ts) with their exact signatures, within the limits of host-abi.md §10.
//   Anything else throws AdmissionError with a stable code (WASM_MALFORMED, WASM_INVALID,
//   WASM_FORBIDDEN_IMPORT, WASM_FORBIDDEN_FEATURE, WASM_LIMIT) and a message naming the reason.
// - The returned bytes are metered: memory maximum capped, and every function charges fuel
//   (one unit per instruction, bulk memory per 64 bytes) and reserves an estimate of its stack
//   frame. Both counters are mutable globals imported from module `tsibase` (`fuel` i64, `stack`
//   i32) that all instances of one execution context share.
// - Running metered code: create one ExecutionMeter per context and pass
//   meter.importObject() next to the `env` functions to every instantiation. A trap with fuel or
//   stack below zero is a limit error: `catch (e) { throw meter.limitError() ?? e; }`. A normal
//   return always leaves fuel >= 0. Host imports charge with meter.chargeFuel; `call` brackets
//   the nested execution with meter.reserveStack/releaseStack. A host that catches an error and
//   keeps running the context must restore meter.stack.value to its value before the call.

export { admitModule, type AdmittedModule } from './admit-module.js';
export { AdmissionError, type AdmissionErrorCode } from './admission-error.js';
export { DEFAULT_ADMISSION_OPTIONS, type AdmissionOptions } from './admission-options.js';
export {
  DEFAULT_STACK_BYTES,
  ExecutionLimitError,
  ExecutionMeter,
  createMeterGlobals,
  type ExecutionBudget,
  type MeterGlobals,
  type ExecutionLimitCode,
} from './metering/execution-meter.js';
export { FUEL_IMPORT_NAME, METER_IMPORT_MODULE, STACK_IMPORT_NAME } from './metering/meter-imports.js';
