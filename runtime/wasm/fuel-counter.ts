import { ByteWriter } from './admission/binary/byte-writer.js';
import { ModuleWriter } from './admission/binary/module-writer.js';
import { ExternalKind, FUNCTION_TYPE_FORM, Opcode, SectionId, ValueType } from './admission/binary/wasm-constants.js';
import { WebAssemblyJs, type WasmGlobal, type WasmModuleObject } from './admission/webassembly-api.js';
import { HOST_SUPPLIED_MODULE } from './admission/host-supplied-imports.js';
import { FUEL_IMPORT_NAME } from './admission/metering/meter-imports.js';

// The host reads, loads and charges the fuel counter on every context and most host calls. From
// JavaScript an i64 global is a BigInt on every read and write (about 75 ns each, measured on
// Node 20); small wasm functions that move the value as an f64 take a few ns. An f64 holds every
// integer below 2^53 exactly, far above any budget a node gives; larger values take the BigInt way.

/** Fast access to one i64 fuel counter from JavaScript, for whole numbers of magnitude below 2^53. */
export interface FuelCounter {
  /** fuel -= units (0 ≤ units < 2^53); returns 1 once the counter is negative, else 0. */
  charge(units: number): number;
  /** fuel = value. */
  set(value: number): void;
  /** The counter as an f64 (rounded when its magnitude is 2^53 or more). */
  get(): number;
}

/**
 * The counter module: charge (f64) -> i32, set (f64), get () -> f64 over the imported mutable
 * i64 global; charge truncates unsigned, set signed (a loaded counter may be negative).
 */
function counterModuleBytes(): Uint8Array {
  const module = new ModuleWriter(160);
  module.section(SectionId.type, (w) => {
    w.u32(3);
    w.u8(FUNCTION_TYPE_FORM).u32(1).u8(ValueType.f64).u32(1).u8(ValueType.i32);
    w.u8(FUNCTION_TYPE_FORM).u32(1).u8(ValueType.f64).u32(0);
    w.u8(FUNCTION_TYPE_FORM).u32(0).u32(1).u8(ValueType.f64);
  });
  module.section(SectionId.import, (w) => w.u32(1).name(HOST_SUPPLIED_MODULE).name(FUEL_IMPORT_NAME).u8(ExternalKind.global).u8(ValueType.i64).u8(1));
  module.section(SectionId.function, (w) => w.u32(3).u32(0).u32(1).u32(2));
  module.section(SectionId.export, (w) => w.u32(3)
    .name('charge').u8(ExternalKind.function).u32(0)
    .name('set').u8(ExternalKind.function).u32(1)
    .name('get').u8(ExternalKind.function).u32(2));
  module.section(SectionId.code, (w) => {
    const charge = new ByteWriter().u32(0)
      .u8(Opcode.globalGet).u32(0).u8(Opcode.localGet).u32(0).u8(Opcode.i64TruncF64U).u8(Opcode.i64Sub).u8(Opcode.globalSet).u32(0)
      .u8(Opcode.globalGet).u32(0).u8(Opcode.i64Const).signed(0).u8(Opcode.i64LtS).u8(Opcode.end);
    const set = new ByteWriter().u32(0).u8(Opcode.localGet).u32(0).u8(Opcode.i64TruncF64S).u8(Opcode.globalSet).u32(0).u8(Opcode.end);
    const get = new ByteWriter().u32(0).u8(Opcode.globalGet).u32(0).u8(Opcode.f64ConvertI64S).u8(Opcode.end);
    w.u32(3).sized(charge).sized(set).sized(get);
  });
  return module.finish();
}

let counterModule: WasmModuleObject | undefined;

/** Fast access to `fuel` (a small instance over it): made once per counter, by its owner. */
export function createFuelCounter(fuel: WasmGlobal<bigint>): FuelCounter {
  counterModule ??= new WebAssemblyJs.Module(counterModuleBytes());
  const exports = new WebAssemblyJs.Instance(counterModule, { [HOST_SUPPLIED_MODULE]: { [FUEL_IMPORT_NAME]: fuel } }).exports;
  return { charge: exports.charge as FuelCounter['charge'], set: exports.set as FuelCounter['set'], get: exports.get as FuelCounter['get'] };
}
