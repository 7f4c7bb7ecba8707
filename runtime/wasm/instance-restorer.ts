import type { MutableGlobal } from './admission/index.js';
import { ByteWriter } from './admission/binary/byte-writer.js';
import { ModuleWriter } from './admission/binary/module-writer.js';
import { PREFIX_MISC, PREFIX_SIMD } from './admission/binary/opcodes.js';
import {
  ExternalKind, FUNCTION_TYPE_FORM, MiscOpcode, Opcode, PAGE_BYTES, PASSIVE_DATA_SEGMENT, SectionId, SimdOpcode, ValueType,
  type ValueTypeCode,
} from './admission/binary/wasm-constants.js';
import { WebAssemblyJs, type WasmInstanceObject, type WasmMemory, type WasmModuleObject } from './admission/webassembly-api.js';

/**
 * Puts one instance back into the state it had when its restorer was attached: the start-up
 * image, zeros to the end of its memory (all of it, if it grew since) and the saved globals.
 */
export type RestoreInstance = () => void;

const IMPORT_MODULE = 'instance';
const MEMORY_IMPORT = 'memory';

/**
 * Resets pooled instances of one module in a single call into wasm instead of many host steps
 * (a typed-array copy and fill, and one JS setter per global, each crossing into the engine).
 * A small module is generated per service module: it imports an instance's memory and mutable
 * globals, keeps the start-up memory image as a passive data segment and, in its own globals,
 * the values the instance's globals had when the restorer was attached (v128 included, which JS
 * cannot read). `reset` copies the image back, zeroes the rest of memory and restores the
 * globals: exactly the fresh state, as admission guarantees the state is memory plus globals,
 * when the memory is at its start-up size (a memory that grew keeps its size: InstancePool hands
 * such an instance only to contexts that accept it).
 */
export class InstanceRestorer {
  private readonly module: WasmModuleObject;

  /** `image`: memory up to its last non-zero byte (the rest is zero), right after instantiation. */
  constructor(private readonly globals: readonly MutableGlobal[], image: Uint8Array) {
    this.module = new WebAssemblyJs.Module(restorerModule(globals.map((g) => g.type), image));
  }

  /**
   * Records the instance's present globals as the state `reset` returns it to (call while it is
   * fresh); `memory` is the one the instance imports.
   */
  attach(instance: WasmInstanceObject, memory: WasmMemory): RestoreInstance {
    const imports: Record<string, unknown> = { [MEMORY_IMPORT]: memory };
    this.globals.forEach((global, i) => {
      imports[globalImportName(i)] = instance.exports[global.exportName];
    });
    const restorer = new WebAssemblyJs.Instance(this.module, { [IMPORT_MODULE]: imports });
    const exports = restorer.exports as { save: () => void; reset: () => void };
    exports.save();
    return exports.reset;
  }
}

function globalImportName(index: number): string {
  return `g${index}`;
}

/**
 * The restorer: it imports the memory and the instance's n globals (global indices 0..n-1);
 * its own globals n..2n-1 hold the saved values. Function 0 `save` copies the instance's globals
 * to its own; function 1 `reset` restores memory (whatever its size) and globals.
 */
function restorerModule(types: readonly ValueTypeCode[], image: Uint8Array): Uint8Array {
  const n = types.length;
  const module = new ModuleWriter(image.length + 256);
  module.section(SectionId.type, (w) => {
    w.u32(1);
    w.u8(FUNCTION_TYPE_FORM).u32(0).u32(0); // () -> ()
  });
  module.section(SectionId.import, (w) => {
    w.u32(1 + n);
    // Limits flag 0, minimum 0: any memory matches.
    w.name(IMPORT_MODULE).name(MEMORY_IMPORT).u8(ExternalKind.memory).u8(0x00).u32(0);
    types.forEach((type, i) => w.name(IMPORT_MODULE).name(globalImportName(i)).u8(ExternalKind.global).u8(type).u8(1));
  });
  module.section(SectionId.function, (w) => w.u32(2).u32(0).u32(0));
  module.section(SectionId.global, (w) => {
    w.u32(n);
    for (const type of types) zeroConstant(w.u8(type).u8(1), type).u8(Opcode.end);
  });
  module.section(SectionId.export, (w) => {
    w.u32(2);
    w.name('save').u8(ExternalKind.function).u32(0);
    w.name('reset').u8(ExternalKind.function).u32(1);
  });
  module.section(SectionId.dataCount, (w) => w.u32(1));
  module.section(SectionId.code, (w) => {
    w.u32(2);
    const save = new ByteWriter().u32(0);
    for (let i = 0; i < n; i++) save.u8(Opcode.globalGet).u32(i).u8(Opcode.globalSet).u32(n + i);
    w.sized(save.u8(Opcode.end));
    const reset = new ByteWriter().u32(0);
    // memory.init segment 0: destination 0, source offset 0, the image's length.
    reset.u8(Opcode.i32Const).signed(0).u8(Opcode.i32Const).signed(0).u8(Opcode.i32Const).signed(image.length);
    reset.u8(PREFIX_MISC).u32(MiscOpcode.memoryInit).u32(0).u8(0x00);
    // memory.fill: from the image's end to the memory's (memory.size pages), with zero.
    reset.u8(Opcode.i32Const).signed(image.length).u8(Opcode.i32Const).signed(0);
    reset.u8(Opcode.memorySize).u8(0x00).u8(Opcode.i32Const).signed(Math.log2(PAGE_BYTES)).u8(Opcode.i32Shl);
    reset.u8(Opcode.i32Const).signed(image.length).u8(Opcode.i32Sub);
    reset.u8(PREFIX_MISC).u32(MiscOpcode.memoryFill).u8(0x00);
    for (let i = 0; i < n; i++) reset.u8(Opcode.globalGet).u32(n + i).u8(Opcode.globalSet).u32(i);
    w.sized(reset.u8(Opcode.end));
  });
  module.section(SectionId.data, (w) => w.u32(1).u8(PASSIVE_DATA_SEGMENT).u32(image.length).bytes(image));
  return module.finish();
}

/** The constant instruction for a zero of `type`. */
function zeroConstant(w: ByteWriter, type: ValueTypeCode): ByteWriter {
  switch (type) {
    case ValueType.i32: return w.u8(Opcode.i32Const).signed(0);
    case ValueType.i64: return w.u8(Opcode.i64Const).signed(0);
    case ValueType.f32: return w.u8(Opcode.f32Const).bytes(new Uint8Array(4));
    case ValueType.f64: return w.u8(Opcode.f64Const).bytes(new Uint8Array(8));
    case ValueType.v128: return w.u8(PREFIX_SIMD).u32(SimdOpcode.v128Const).bytes(new Uint8Array(16));
  }
}
