import { WebAssemblyJs, type WasmGlobal, type WasmModuleObject } from '../webassembly-api.js';
import { FUEL_IMPORT_NAME, METER_IMPORT_MODULE } from './meter-imports.js';

// Host imports charge the fuel counter on most calls. From JavaScript an i64 global is a BigInt
// on every read and write (about 75 ns a charge, measured on Node 20); a wasm function that takes
// the amount as an f64 and subtracts inside the engine takes about 6 ns.

/** (func (param $units f64) (result i32)): fuel -= trunc_u($units); returns fuel < 0. */
const CHARGER_BYTES = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7c, 0x01, 0x7f, // types: (f64) -> i32
  0x02, 0x11, 0x01, // imports: one
  0x07, 0x74, 0x73, 0x69, 0x62, 0x61, 0x73, 0x65, // "tsibase"
  0x04, 0x66, 0x75, 0x65, 0x6c, 0x03, 0x7e, 0x01, // "fuel": global mut i64
  0x03, 0x02, 0x01, 0x00, // functions: one of type 0
  0x07, 0x0a, 0x01, 0x06, 0x63, 0x68, 0x61, 0x72, 0x67, 0x65, 0x00, 0x00, // export "charge" = func 0
  0x0a, 0x11, 0x01, 0x0f, 0x00, // code: one body of 15 bytes, no locals
  0x23, 0x00, 0x20, 0x00, 0xb1, 0x7d, 0x24, 0x00, // global.get 0, local.get 0, i64.trunc_f64_u, i64.sub, global.set 0
  0x23, 0x00, 0x42, 0x00, 0x53, 0x0b, // global.get 0, i64.const 0, i64.lt_s, end
);

/** Subtracts `units` (a whole number, 0 ≤ units < 2^53) from the fuel; returns 1 once it is negative. */
export type FuelCharger = (units: number) => number;

let chargerModule: WasmModuleObject | undefined;
const chargers = new WeakMap<WasmGlobal<bigint>, FuelCharger>();

/** The charger of `fuel`, made once per counter (an engine's counter serves all its contexts). */
export function fuelChargerOf(fuel: WasmGlobal<bigint>): FuelCharger {
  let charger = chargers.get(fuel);
  if (!charger) {
    chargerModule ??= new WebAssemblyJs.Module(CHARGER_BYTES);
    const instance = new WebAssemblyJs.Instance(chargerModule, { [METER_IMPORT_MODULE]: { [FUEL_IMPORT_NAME]: fuel } });
    charger = instance.exports.charge as FuelCharger;
    chargers.set(fuel, charger);
  }
  return charger;
}
