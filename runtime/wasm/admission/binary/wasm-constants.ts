// Numeric codes of the WebAssembly binary format that the admission reader and writer share.

export const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d] as const;
export const WASM_VERSION = [0x01, 0x00, 0x00, 0x00] as const;

/** Bytes in one page of linear memory, the unit of memory sizes and limits. */
export const PAGE_BYTES = 65536;

export const SectionId = {
  custom: 0,
  type: 1,
  import: 2,
  function: 3,
  table: 4,
  memory: 5,
  global: 6,
  export: 7,
  start: 8,
  element: 9,
  code: 10,
  data: 11,
  dataCount: 12,
  tag: 13,
} as const;

/** Position of each non-custom section id in the required order (the tag section sits after memory). */
export const SECTION_ORDER: Readonly<Record<number, number>> = {
  [SectionId.type]: 1,
  [SectionId.import]: 2,
  [SectionId.function]: 3,
  [SectionId.table]: 4,
  [SectionId.memory]: 5,
  [SectionId.tag]: 6,
  [SectionId.global]: 7,
  [SectionId.export]: 8,
  [SectionId.start]: 9,
  [SectionId.element]: 10,
  [SectionId.dataCount]: 11,
  [SectionId.code]: 12,
  [SectionId.data]: 13,
};

export const ValueType = {
  i32: 0x7f,
  i64: 0x7e,
  f32: 0x7d,
  f64: 0x7c,
  v128: 0x7b,
} as const;

export type ValueTypeCode = (typeof ValueType)[keyof typeof ValueType];

const VALUE_TYPE_NAMES: Readonly<Record<number, string>> = {
  0x7f: 'i32',
  0x7e: 'i64',
  0x7d: 'f32',
  0x7c: 'f64',
  0x7b: 'v128',
};

export function isValueType(code: number): code is ValueTypeCode {
  return VALUE_TYPE_NAMES[code] !== undefined;
}

export function valueTypeName(code: number): string {
  return VALUE_TYPE_NAMES[code] ?? `0x${code.toString(16)}`;
}

/** Byte size of a value of the type (mutable-global budget, frame estimates). */
export function valueTypeSize(code: ValueTypeCode): number {
  switch (code) {
    case ValueType.i32:
    case ValueType.f32:
      return 4;
    case ValueType.v128:
      return 16;
    default:
      return 8;
  }
}

/** Reference type codes: only ever met to be refused (reference types, GC). */
export const FUNCREF = 0x70;
export const EXTERNREF = 0x6f;

export const ExternalKind = { function: 0, table: 1, memory: 2, global: 3, tag: 4 } as const;

export const EXTERNAL_KIND_NAMES = ['function', 'table', 'memory', 'global', 'tag'] as const;

/** The empty block type. */
export const BLOCK_TYPE_EMPTY = 0x40;

/** The form byte that starts a function type. */
export const FUNCTION_TYPE_FORM = 0x60;

/** A data segment of the bulk-memory proposal copied only by memory.init (no offset, not at instantiation). */
export const PASSIVE_DATA_SEGMENT = 0x01;

/** Single-byte opcodes of the instructions the host writes itself (metering, the instance restorer). */
export const Opcode = {
  unreachable: 0x00,
  block: 0x02,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  return: 0x0f,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  memorySize: 0x3f,
  i32Const: 0x41,
  i64Const: 0x42,
  f32Const: 0x43,
  f64Const: 0x44,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i64LtS: 0x53,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Shl: 0x74,
  i64Sub: 0x7d,
  i64ShrU: 0x88,
  i64ExtendI32U: 0xad,
  i64TruncF64S: 0xb0,
  i64TruncF64U: 0xb1,
  f64ConvertI64S: 0xb9,
} as const;

/** Opcodes after the 0xfc prefix (PREFIX_MISC) that the host writes. */
export const MiscOpcode = { memoryInit: 0x08, memoryFill: 0x0b } as const;

/** Opcodes after the 0xfd prefix (PREFIX_SIMD) that the host writes. */
export const SimdOpcode = { v128Const: 0x0c } as const;
