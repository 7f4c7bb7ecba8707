import type { MutableGlobal } from './admission/index.js';
import { ByteWriter } from './admission/binary/byte-writer.js';
import { SectionId, ValueType, WASM_MAGIC, WASM_VERSION, type ValueTypeCode } from './admission/binary/wasm-constants.js';
import { WebAssemblyJs, type WasmInstanceObject, type WasmMemory, type WasmModuleObject } from './admission/webassembly-api.js';

/** Puts one instance back into the state it had when its restorer was attached; false if its memory grew since. */
export type RestoreInstance = () => boolean;

const IMPORT_MODULE = 'instance';
const MEMORY_IMPORT = 'memory';
const PAGE_BYTES = 65536;

// Opcodes the restorer's two functions use.
const OP = {
  if: 0x04, end: 0x0b, return: 0x0f, globalGet: 0x23, globalSet: 0x24, memorySize: 0x3f,
  i32Const: 0x41, i64Const: 0x42, f32Const: 0x43, f64Const: 0x44, i32Ne: 0x47,
  prefixMisc: 0xfc, memoryInit: 0x08, memoryFill: 0x0b, prefixSimd: 0xfd, v128Const: 0x0c,
} as const;
const BLOCK_EMPTY = 0x40;
const FUNC_TYPE = 0x60;
const KIND_FUNCTION = 0x00;
const KIND_MEMORY = 0x02;
const KIND_GLOBAL = 0x03;
const PASSIVE_SEGMENT = 0x01;

/**
 * Resets pooled instances of one module in a single call into wasm instead of many host steps
 * (a typed-array copy and fill, and one JS setter per global, each crossing into the engine).
 * A small module is generated per service module: it imports an instance's memory and mutable
 * globals, keeps the start-up memory image as a passive data segment and, in its own globals,
 * the values the instance's globals had when the restorer was attached (v128 included, which JS
 * cannot read). `reset` copies the image back, zeroes the rest of memory and restores the
 * globals: exactly the fresh state, as admission guarantees the state is memory plus globals.
 */
export class InstanceRestorer {
  private readonly module: WasmModuleObject;

  /**
   * `image`: memory up to its last non-zero byte (the rest is zero) of an instance of
   * `memoryBytes` bytes, right after instantiation.
   */
  constructor(private readonly globals: readonly MutableGlobal[], image: Uint8Array, memoryBytes: number) {
    this.module = new WebAssemblyJs.Module(restorerModule(globals.map((g) => g.type), image, memoryBytes));
  }

  /** Records the instance's present globals as the state `reset` returns it to (call while it is fresh). */
  attach(instance: WasmInstanceObject): RestoreInstance {
    const imports: Record<string, unknown> = { [MEMORY_IMPORT]: instance.exports.memory as WasmMemory };
    this.globals.forEach((global, i) => {
      imports[globalImportName(i)] = instance.exports[global.exportName];
    });
    const restorer = new WebAssemblyJs.Instance(this.module, { [IMPORT_MODULE]: imports });
    const exports = restorer.exports as { save: () => void; reset: () => number };
    exports.save();
    const reset = exports.reset;
    return () => reset() === 1;
  }
}

function globalImportName(index: number): string {
  return `g${index}`;
}

/**
 * The restorer: imports 0 = memory, 1..n = the instance's globals; own globals n+1..2n hold
 * the saved values. Function 0 `save` copies imports to own globals; function 1 `reset`
 * returns 0 when the memory is not its start-up size, else restores memory and globals and
 * returns 1.
 */
function restorerModule(types: readonly ValueTypeCode[], image: Uint8Array, memoryBytes: number): Uint8Array {
  const n = types.length;
  const out = new ByteWriter(image.length + 256).bytes(Uint8Array.from(WASM_MAGIC)).bytes(Uint8Array.from(WASM_VERSION));
  const section = (id: number, write: (w: ByteWriter) => void) => {
    const content = new ByteWriter();
    write(content);
    out.u8(id).sized(content);
  };
  section(SectionId.type, (w) => {
    w.u32(2);
    w.u8(FUNC_TYPE).u32(0).u32(0); // () -> ()
    w.u8(FUNC_TYPE).u32(0).u32(1).u8(ValueType.i32); // () -> i32
  });
  section(SectionId.import, (w) => {
    w.u32(1 + n);
    w.name(IMPORT_MODULE).name(MEMORY_IMPORT).u8(KIND_MEMORY).u8(0x00).u32(0);
    types.forEach((type, i) => w.name(IMPORT_MODULE).name(globalImportName(i)).u8(KIND_GLOBAL).u8(type).u8(1));
  });
  section(SectionId.function, (w) => w.u32(2).u32(0).u32(1));
  section(SectionId.global, (w) => {
    w.u32(n);
    for (const type of types) zeroConstant(w.u8(type).u8(1), type).u8(OP.end);
  });
  section(SectionId.export, (w) => {
    w.u32(2);
    w.name('save').u8(KIND_FUNCTION).u32(0);
    w.name('reset').u8(KIND_FUNCTION).u32(1);
  });
  section(SectionId.dataCount, (w) => w.u32(1));
  section(SectionId.code, (w) => {
    w.u32(2);
    const save = new ByteWriter().u32(0);
    for (let i = 0; i < n; i++) save.u8(OP.globalGet).u32(i).u8(OP.globalSet).u32(n + i);
    w.sized(save.u8(OP.end));
    const reset = new ByteWriter().u32(0);
    reset.u8(OP.memorySize).u8(0x00).u8(OP.i32Const).signed(memoryBytes / PAGE_BYTES).u8(OP.i32Ne);
    reset.u8(OP.if).u8(BLOCK_EMPTY).u8(OP.i32Const).signed(0).u8(OP.return).u8(OP.end);
    // memory.init segment 0: destination 0, source offset 0, the image's length.
    reset.u8(OP.i32Const).signed(0).u8(OP.i32Const).signed(0).u8(OP.i32Const).signed(image.length);
    reset.u8(OP.prefixMisc).u32(OP.memoryInit).u32(0).u8(0x00);
    // memory.fill: from the image's end to the memory's, with zero.
    reset.u8(OP.i32Const).signed(image.length).u8(OP.i32Const).signed(0).u8(OP.i32Const).signed(memoryBytes - image.length);
    reset.u8(OP.prefixMisc).u32(OP.memoryFill).u8(0x00);
    for (let i = 0; i < n; i++) reset.u8(OP.globalGet).u32(n + i).u8(OP.globalSet).u32(i);
    w.sized(reset.u8(OP.i32Const).signed(1).u8(OP.end));
  });
  section(SectionId.data, (w) => w.u32(1).u8(PASSIVE_SEGMENT).u32(image.length).bytes(image));
  return out.view().slice();
}

/** The constant instruction for a zero of `type`. */
function zeroConstant(w: ByteWriter, type: ValueTypeCode): ByteWriter {
  switch (type) {
    case ValueType.i32: return w.u8(OP.i32Const).signed(0);
    case ValueType.i64: return w.u8(OP.i64Const).signed(0);
    case ValueType.f32: return w.u8(OP.f32Const).bytes(new Uint8Array(4));
    case ValueType.f64: return w.u8(OP.f64Const).bytes(new Uint8Array(8));
    case ValueType.v128: return w.u8(OP.prefixSimd).u32(OP.v128Const).bytes(new Uint8Array(16));
  }
}
