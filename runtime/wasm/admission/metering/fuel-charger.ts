import { ByteWriter } from '../binary/byte-writer.js';
import { ModuleWriter } from '../binary/module-writer.js';
import { ExternalKind, FUNCTION_TYPE_FORM, Opcode, SectionId, ValueType } from '../binary/wasm-constants.js';
import { WebAssemblyJs, type WasmGlobal, type WasmModuleObject } from '../webassembly-api.js';
import { FUEL_IMPORT_NAME, METER_IMPORT_MODULE } from './meter-imports.js';

// Host imports charge the fuel counter on most calls. From JavaScript an i64 global is a BigInt
// on every read and write (about 75 ns a charge, measured on Node 20); a wasm function that takes
// the amount as an f64 and subtracts inside the engine takes about 6 ns.

/** The charger module: (func "charge" (param $units f64) (result i32)): fuel -= trunc_u($units); returns fuel < 0. */
function chargerModuleBytes(): Uint8Array {
  const module = new ModuleWriter(64);
  module.section(SectionId.type, (w) => w.u32(1).u8(FUNCTION_TYPE_FORM).u32(1).u8(ValueType.f64).u32(1).u8(ValueType.i32));
  module.section(SectionId.import, (w) => w.u32(1).name(METER_IMPORT_MODULE).name(FUEL_IMPORT_NAME).u8(ExternalKind.global).u8(ValueType.i64).u8(1));
  module.section(SectionId.function, (w) => w.u32(1).u32(0));
  module.section(SectionId.export, (w) => w.u32(1).name('charge').u8(ExternalKind.function).u32(0));
  module.section(SectionId.code, (w) => {
    const body = new ByteWriter().u32(0)
      .u8(Opcode.globalGet).u32(0).u8(Opcode.localGet).u32(0).u8(Opcode.i64TruncF64U).u8(Opcode.i64Sub).u8(Opcode.globalSet).u32(0)
      .u8(Opcode.globalGet).u32(0).u8(Opcode.i64Const).signed(0).u8(Opcode.i64LtS).u8(Opcode.end);
    w.u32(1).sized(body);
  });
  return module.finish();
}

/** Subtracts `units` (a whole number, 0 ≤ units < 2^53) from the fuel; returns 1 once it is negative. */
export type FuelCharger = (units: number) => number;

let chargerModule: WasmModuleObject | undefined;
const chargers = new WeakMap<WasmGlobal<bigint>, FuelCharger>();

/** The charger of `fuel`, made once per counter (an engine's counter serves all its contexts). */
export function fuelChargerOf(fuel: WasmGlobal<bigint>): FuelCharger {
  let charger = chargers.get(fuel);
  if (!charger) {
    chargerModule ??= new WebAssemblyJs.Module(chargerModuleBytes());
    const instance = new WebAssemblyJs.Instance(chargerModule, { [METER_IMPORT_MODULE]: { [FUEL_IMPORT_NAME]: fuel } });
    charger = instance.exports.charge as FuelCharger;
    chargers.set(fuel, charger);
  }
  return charger;
}
