// The instruction set admitted for service code, as data: for every opcode its text name, the
// shape of its immediates, how it moves the operand stack (for frame-size estimates) and how it
// moves control (for metering). Opcodes of refused proposals are listed with the feature they
// belong to, so a refusal can name both; anything absent is unknown.

export const Immediate = {
  none: 0,
  blockType: 1,
  label: 2,
  labelTable: 3,
  function: 4,
  callIndirect: 5,
  local: 6,
  global: 7,
  memarg: 8,
  memoryIndex: 9,
  i32: 10,
  i64: 11,
  f32: 12,
  f64: 13,
  memoryInit: 14,
  dataIndex: 15,
  memoryCopy: 16,
  tableInit: 17,
  elemIndex: 18,
  tableCopy: 19,
  v128: 20,
  shuffle: 21,
  lane: 22,
  memargLane: 23,
} as const;

/** What an instruction does beyond popping and pushing values. */
export const Flow = {
  plain: 0,
  block: 1,
  loop: 2,
  if: 3,
  else: 4,
  end: 5,
  br: 6,
  brIf: 7,
  brTable: 8,
  return: 9,
  unreachable: 10,
  call: 11,
  callIndirect: 12,
  global: 13,
  /** memory.init / memory.copy / memory.fill: work proportional to the byte count on top of the stack. */
  sizedBulk: 14,
} as const;

export interface OpcodeInfo {
  readonly name: string;
  readonly immediate: number;
  readonly flow: number;
  /** Values popped and pushed; calls and control instructions are handled by their flow. */
  readonly pops: number;
  readonly pushes: number;
  /** Fuel charged per execution: 0 for pure structure (block, loop, else, end, nop), else 1. */
  readonly cost: number;
  /** A 128-bit SIMD instruction (its operand-stack slots are 16 bytes wide). */
  readonly vector: boolean;
}

export interface ForbiddenOpcode {
  readonly name: string;
  readonly feature: string;
}

export type OpcodeEntry = OpcodeInfo | ForbiddenOpcode;

export function isForbidden(entry: OpcodeEntry): entry is ForbiddenOpcode {
  return 'feature' in entry;
}

function op(name: string, immediate: number, pops: number, pushes: number, flow: number = Flow.plain): OpcodeInfo {
  const structural = flow === Flow.block || flow === Flow.loop || flow === Flow.else || flow === Flow.end || name === 'nop';
  return { name, immediate, flow, pops, pushes, cost: structural ? 0 : 1, vector: false };
}

function place(table: OpcodeEntry[], first: number, names: readonly string[], immediate: number, pops: number, pushes: number): void {
  names.forEach((name, i) => {
    table[first + i] = op(name, immediate, pops, pushes);
  });
}

function forbid(table: OpcodeEntry[], feature: string, entries: Readonly<Record<number, string>>): void {
  for (const [opcode, name] of Object.entries(entries)) table[Number(opcode)] = { name, feature };
}

/** Opcodes without a prefix byte (MVP, sign extension). */
export const SINGLE_BYTE_OPCODES: readonly OpcodeEntry[] = (() => {
  const t: OpcodeEntry[] = [];
  const I = Immediate;
  t[0x00] = op('unreachable', I.none, 0, 0, Flow.unreachable);
  t[0x01] = op('nop', I.none, 0, 0);
  t[0x02] = op('block', I.blockType, 0, 0, Flow.block);
  t[0x03] = op('loop', I.blockType, 0, 0, Flow.loop);
  t[0x04] = op('if', I.blockType, 1, 0, Flow.if);
  t[0x05] = op('else', I.none, 0, 0, Flow.else);
  t[0x0b] = op('end', I.none, 0, 0, Flow.end);
  t[0x0c] = op('br', I.label, 0, 0, Flow.br);
  t[0x0d] = op('br_if', I.label, 1, 0, Flow.brIf);
  t[0x0e] = op('br_table', I.labelTable, 1, 0, Flow.brTable);
  t[0x0f] = op('return', I.none, 0, 0, Flow.return);
  t[0x10] = op('call', I.function, 0, 0, Flow.call);
  t[0x11] = op('call_indirect', I.callIndirect, 1, 0, Flow.callIndirect);
  t[0x1a] = op('drop', I.none, 1, 0);
  t[0x1b] = op('select', I.none, 3, 1);
  t[0x20] = op('local.get', I.local, 0, 1);
  t[0x21] = op('local.set', I.local, 1, 0);
  t[0x22] = op('local.tee', I.local, 1, 1);
  t[0x23] = op('global.get', I.global, 0, 1, Flow.global);
  t[0x24] = op('global.set', I.global, 1, 0, Flow.global);
  place(t, 0x28, ['i32.load', 'i64.load', 'f32.load', 'f64.load', 'i32.load8_s', 'i32.load8_u', 'i32.load16_s',
    'i32.load16_u', 'i64.load8_s', 'i64.load8_u', 'i64.load16_s', 'i64.load16_u', 'i64.load32_s', 'i64.load32_u'], I.memarg, 1, 1);
  place(t, 0x36, ['i32.store', 'i64.store', 'f32.store', 'f64.store', 'i32.store8', 'i32.store16', 'i64.store8',
    'i64.store16', 'i64.store32'], I.memarg, 2, 0);
  t[0x3f] = op('memory.size', I.memoryIndex, 0, 1);
  t[0x40] = op('memory.grow', I.memoryIndex, 1, 1);
  t[0x41] = op('i32.const', I.i32, 0, 1);
  t[0x42] = op('i64.const', I.i64, 0, 1);
  t[0x43] = op('f32.const', I.f32, 0, 1);
  t[0x44] = op('f64.const', I.f64, 0, 1);
  const intCompare = ['eq', 'ne', 'lt_s', 'lt_u', 'gt_s', 'gt_u', 'le_s', 'le_u', 'ge_s', 'ge_u'];
  const floatCompare = ['eq', 'ne', 'lt', 'gt', 'le', 'ge'];
  const intBinary = ['add', 'sub', 'mul', 'div_s', 'div_u', 'rem_s', 'rem_u', 'and', 'or', 'xor', 'shl', 'shr_s', 'shr_u', 'rotl', 'rotr'];
  const floatUnary = ['abs', 'neg', 'ceil', 'floor', 'trunc', 'nearest', 'sqrt'];
  const floatBinary = ['add', 'sub', 'mul', 'div', 'min', 'max', 'copysign'];
  const prefixed = (type: string, names: readonly string[]) => names.map((n) => `${type}.${n}`);
  place(t, 0x45, ['i32.eqz'], I.none, 1, 1);
  place(t, 0x46, prefixed('i32', intCompare), I.none, 2, 1);
  place(t, 0x50, ['i64.eqz'], I.none, 1, 1);
  place(t, 0x51, prefixed('i64', intCompare), I.none, 2, 1);
  place(t, 0x5b, prefixed('f32', floatCompare), I.none, 2, 1);
  place(t, 0x61, prefixed('f64', floatCompare), I.none, 2, 1);
  place(t, 0x67, ['i32.clz', 'i32.ctz', 'i32.popcnt'], I.none, 1, 1);
  place(t, 0x6a, prefixed('i32', intBinary), I.none, 2, 1);
  place(t, 0x79, ['i64.clz', 'i64.ctz', 'i64.popcnt'], I.none, 1, 1);
  place(t, 0x7c, prefixed('i64', intBinary), I.none, 2, 1);
  place(t, 0x8b, prefixed('f32', floatUnary), I.none, 1, 1);
  place(t, 0x92, prefixed('f32', floatBinary), I.none, 2, 1);
  place(t, 0x99, prefixed('f64', floatUnary), I.none, 1, 1);
  place(t, 0xa0, prefixed('f64', floatBinary), I.none, 2, 1);
  place(t, 0xa7, ['i32.wrap_i64', 'i32.trunc_f32_s', 'i32.trunc_f32_u', 'i32.trunc_f64_s', 'i32.trunc_f64_u',
    'i64.extend_i32_s', 'i64.extend_i32_u', 'i64.trunc_f32_s', 'i64.trunc_f32_u', 'i64.trunc_f64_s', 'i64.trunc_f64_u',
    'f32.convert_i32_s', 'f32.convert_i32_u', 'f32.convert_i64_s', 'f32.convert_i64_u', 'f32.demote_f64',
    'f64.convert_i32_s', 'f64.convert_i32_u', 'f64.convert_i64_s', 'f64.convert_i64_u', 'f64.promote_f32',
    'i32.reinterpret_f32', 'i64.reinterpret_f64', 'f32.reinterpret_i32', 'f64.reinterpret_i64'], I.none, 1, 1);
  place(t, 0xc0, ['i32.extend8_s', 'i32.extend16_s', 'i64.extend8_s', 'i64.extend16_s', 'i64.extend32_s'], I.none, 1, 1);
  forbid(t, 'exceptions', { 0x06: 'try', 0x07: 'catch', 0x08: 'throw', 0x09: 'rethrow', 0x0a: 'throw_ref', 0x18: 'delegate', 0x19: 'catch_all', 0x1f: 'try_table' });
  forbid(t, 'tail calls', { 0x12: 'return_call', 0x13: 'return_call_indirect', 0x15: 'return_call_ref' });
  forbid(t, 'typed function references', { 0x14: 'call_ref', 0xd4: 'ref.as_non_null', 0xd5: 'br_on_null', 0xd6: 'br_on_non_null' });
  forbid(t, 'reference types', { 0x1c: 'select with type', 0x25: 'table.get', 0x26: 'table.set', 0xd0: 'ref.null', 0xd1: 'ref.is_null', 0xd2: 'ref.func' });
  forbid(t, 'GC', { 0xd3: 'ref.eq' });
  return t;
})();

export const PREFIX_GC = 0xfb;
export const PREFIX_MISC = 0xfc;
export const PREFIX_SIMD = 0xfd;
export const PREFIX_THREADS = 0xfe;

/** Features whose whole prefix space is refused. */
export const FORBIDDEN_PREFIXES: Readonly<Record<number, ForbiddenOpcode>> = {
  [PREFIX_GC]: { name: 'GC instruction', feature: 'GC' },
  [PREFIX_THREADS]: { name: 'atomic instruction', feature: 'threads' },
};

/** 0xFC-prefixed opcodes: non-trapping float-to-int and bulk memory. */
export const MISC_OPCODES: readonly OpcodeEntry[] = (() => {
  const t: OpcodeEntry[] = [];
  const I = Immediate;
  place(t, 0x00, ['i32.trunc_sat_f32_s', 'i32.trunc_sat_f32_u', 'i32.trunc_sat_f64_s', 'i32.trunc_sat_f64_u',
    'i64.trunc_sat_f32_s', 'i64.trunc_sat_f32_u', 'i64.trunc_sat_f64_s', 'i64.trunc_sat_f64_u'], I.none, 1, 1);
  t[0x08] = op('memory.init', I.memoryInit, 3, 0, Flow.sizedBulk);
  t[0x09] = op('data.drop', I.dataIndex, 0, 0);
  t[0x0a] = op('memory.copy', I.memoryCopy, 3, 0, Flow.sizedBulk);
  t[0x0b] = op('memory.fill', I.memoryIndex, 3, 0, Flow.sizedBulk);
  t[0x0c] = op('table.init', I.tableInit, 3, 0);
  t[0x0d] = op('elem.drop', I.elemIndex, 0, 0);
  t[0x0e] = op('table.copy', I.tableCopy, 3, 0);
  forbid(t, 'reference types', { 0x0f: 'table.grow', 0x10: 'table.size', 0x11: 'table.fill' });
  forbid(t, 'memory control', { 0x12: 'memory.discard' });
  return t;
})();

// Fixed-width SIMD, one line per opcode: `opcode shape name`. Shapes: load/store (memarg),
// loadlane/storelane (memarg + lane), const (16 bytes), shuffle (16 lanes), extract/replace
// (lane), u/b/t (1, 2 or 3 operands, one result).
const SIMD_TABLE = `
00 load v128.load|01 load v128.load8x8_s|02 load v128.load8x8_u|03 load v128.load16x4_s|04 load v128.load16x4_u
05 load v128.load32x2_s|06 load v128.load32x2_u|07 load v128.load8_splat|08 load v128.load16_splat
09 load v128.load32_splat|0a load v128.load64_splat|0b store v128.store|0c const v128.const|0d shuffle i8x16.shuffle
0e b i8x16.swizzle|0f u i8x16.splat|10 u i16x8.splat|11 u i32x4.splat|12 u i64x2.splat|13 u f32x4.splat|14 u f64x2.splat
15 extract i8x16.extract_lane_s|16 extract i8x16.extract_lane_u|17 replace i8x16.replace_lane
18 extract i16x8.extract_lane_s|19 extract i16x8.extract_lane_u|1a replace i16x8.replace_lane
1b extract i32x4.extract_lane|1c replace i32x4.replace_lane|1d extract i64x2.extract_lane|1e replace i64x2.replace_lane
1f extract f32x4.extract_lane|20 replace f32x4.replace_lane|21 extract f64x2.extract_lane|22 replace f64x2.replace_lane
23 b i8x16.eq|24 b i8x16.ne|25 b i8x16.lt_s|26 b i8x16.lt_u|27 b i8x16.gt_s|28 b i8x16.gt_u|29 b i8x16.le_s
2a b i8x16.le_u|2b b i8x16.ge_s|2c b i8x16.ge_u|2d b i16x8.eq|2e b i16x8.ne|2f b i16x8.lt_s|30 b i16x8.lt_u
31 b i16x8.gt_s|32 b i16x8.gt_u|33 b i16x8.le_s|34 b i16x8.le_u|35 b i16x8.ge_s|36 b i16x8.ge_u|37 b i32x4.eq
38 b i32x4.ne|39 b i32x4.lt_s|3a b i32x4.lt_u|3b b i32x4.gt_s|3c b i32x4.gt_u|3d b i32x4.le_s|3e b i32x4.le_u
3f b i32x4.ge_s|40 b i32x4.ge_u|41 b f32x4.eq|42 b f32x4.ne|43 b f32x4.lt|44 b f32x4.gt|45 b f32x4.le|46 b f32x4.ge
47 b f64x2.eq|48 b f64x2.ne|49 b f64x2.lt|4a b f64x2.gt|4b b f64x2.le|4c b f64x2.ge|4d u v128.not|4e b v128.and
4f b v128.andnot|50 b v128.or|51 b v128.xor|52 t v128.bitselect|53 u v128.any_true
54 loadlane v128.load8_lane|55 loadlane v128.load16_lane|56 loadlane v128.load32_lane|57 loadlane v128.load64_lane
58 storelane v128.store8_lane|59 storelane v128.store16_lane|5a storelane v128.store32_lane|5b storelane v128.store64_lane
5c load v128.load32_zero|5d load v128.load64_zero|5e u f32x4.demote_f64x2_zero|5f u f64x2.promote_low_f32x4
60 u i8x16.abs|61 u i8x16.neg|62 u i8x16.popcnt|63 u i8x16.all_true|64 u i8x16.bitmask|65 b i8x16.narrow_i16x8_s
66 b i8x16.narrow_i16x8_u|67 u f32x4.ceil|68 u f32x4.floor|69 u f32x4.trunc|6a u f32x4.nearest|6b b i8x16.shl
6c b i8x16.shr_s|6d b i8x16.shr_u|6e b i8x16.add|6f b i8x16.add_sat_s|70 b i8x16.add_sat_u|71 b i8x16.sub
72 b i8x16.sub_sat_s|73 b i8x16.sub_sat_u|74 u f64x2.ceil|75 u f64x2.floor|76 b i8x16.min_s|77 b i8x16.min_u
78 b i8x16.max_s|79 b i8x16.max_u|7a u f64x2.trunc|7b b i8x16.avgr_u|7c u i16x8.extadd_pairwise_i8x16_s
7d u i16x8.extadd_pairwise_i8x16_u|7e u i32x4.extadd_pairwise_i16x8_s|7f u i32x4.extadd_pairwise_i16x8_u
80 u i16x8.abs|81 u i16x8.neg|82 b i16x8.q15mulr_sat_s|83 u i16x8.all_true|84 u i16x8.bitmask
85 b i16x8.narrow_i32x4_s|86 b i16x8.narrow_i32x4_u|87 u i16x8.extend_low_i8x16_s|88 u i16x8.extend_high_i8x16_s
89 u i16x8.extend_low_i8x16_u|8a u i16x8.extend_high_i8x16_u|8b b i16x8.shl|8c b i16x8.shr_s|8d b i16x8.shr_u
8e b i16x8.add|8f b i16x8.add_sat_s|90 b i16x8.add_sat_u|91 b i16x8.sub|92 b i16x8.sub_sat_s|93 b i16x8.sub_sat_u
94 u f64x2.nearest|95 b i16x8.mul|96 b i16x8.min_s|97 b i16x8.min_u|98 b i16x8.max_s|99 b i16x8.max_u
9b b i16x8.avgr_u|9c b i16x8.extmul_low_i8x16_s|9d b i16x8.extmul_high_i8x16_s|9e b i16x8.extmul_low_i8x16_u
9f b i16x8.extmul_high_i8x16_u|a0 u i32x4.abs|a1 u i32x4.neg|a3 u i32x4.all_true|a4 u i32x4.bitmask
a7 u i32x4.extend_low_i16x8_s|a8 u i32x4.extend_high_i16x8_s|a9 u i32x4.extend_low_i16x8_u
aa u i32x4.extend_high_i16x8_u|ab b i32x4.shl|ac b i32x4.shr_s|ad b i32x4.shr_u|ae b i32x4.add|b1 b i32x4.sub
b5 b i32x4.mul|b6 b i32x4.min_s|b7 b i32x4.min_u|b8 b i32x4.max_s|b9 b i32x4.max_u|ba b i32x4.dot_i16x8_s
bc b i32x4.extmul_low_i16x8_s|bd b i32x4.extmul_high_i16x8_s|be b i32x4.extmul_low_i16x8_u
bf b i32x4.extmul_high_i16x8_u|c0 u i64x2.abs|c1 u i64x2.neg|c3 u i64x2.all_true|c4 u i64x2.bitmask
c7 u i64x2.extend_low_i32x4_s|c8 u i64x2.extend_high_i32x4_s|c9 u i64x2.extend_low_i32x4_u
ca u i64x2.extend_high_i32x4_u|cb b i64x2.shl|cc b i64x2.shr_s|cd b i64x2.shr_u|ce b i64x2.add|d1 b i64x2.sub
d5 b i64x2.mul|d6 b i64x2.eq|d7 b i64x2.ne|d8 b i64x2.lt_s|d9 b i64x2.gt_s|da b i64x2.le_s|db b i64x2.ge_s
dc b i64x2.extmul_low_i32x4_s|dd b i64x2.extmul_high_i32x4_s|de b i64x2.extmul_low_i32x4_u
df b i64x2.extmul_high_i32x4_u|e0 u f32x4.abs|e1 u f32x4.neg|e3 u f32x4.sqrt|e4 b f32x4.add|e5 b f32x4.sub
e6 b f32x4.mul|e7 b f32x4.div|e8 b f32x4.min|e9 b f32x4.max|ea b f32x4.pmin|eb b f32x4.pmax|ec u f64x2.abs
ed u f64x2.neg|ef u f64x2.sqrt|f0 b f64x2.add|f1 b f64x2.sub|f2 b f64x2.mul|f3 b f64x2.div|f4 b f64x2.min
f5 b f64x2.max|f6 b f64x2.pmin|f7 b f64x2.pmax|f8 u i32x4.trunc_sat_f32x4_s|f9 u i32x4.trunc_sat_f32x4_u
fa u f32x4.convert_i32x4_s|fb u f32x4.convert_i32x4_u|fc u i32x4.trunc_sat_f64x2_s_zero
fd u i32x4.trunc_sat_f64x2_u_zero|fe u f64x2.convert_low_i32x4_s|ff u f64x2.convert_low_i32x4_u`;

const RELAXED_SIMD_NAMES = [
  'i8x16.relaxed_swizzle', 'i32x4.relaxed_trunc_f32x4_s', 'i32x4.relaxed_trunc_f32x4_u',
  'i32x4.relaxed_trunc_f64x2_s_zero', 'i32x4.relaxed_trunc_f64x2_u_zero', 'f32x4.relaxed_madd',
  'f32x4.relaxed_nmadd', 'f64x2.relaxed_madd', 'f64x2.relaxed_nmadd', 'i8x16.relaxed_laneselect',
  'i16x8.relaxed_laneselect', 'i32x4.relaxed_laneselect', 'i64x2.relaxed_laneselect', 'f32x4.relaxed_min',
  'f32x4.relaxed_max', 'f64x2.relaxed_min', 'f64x2.relaxed_max', 'i16x8.relaxed_q15mulr_s',
  'i16x8.relaxed_dot_i8x16_i7x16_s', 'i32x4.relaxed_dot_i8x16_i7x16_add_s',
];

const SIMD_SHAPES: Readonly<Record<string, readonly [immediate: number, pops: number, pushes: number]>> = {
  load: [Immediate.memarg, 1, 1],
  store: [Immediate.memarg, 2, 0],
  loadlane: [Immediate.memargLane, 2, 1],
  storelane: [Immediate.memargLane, 2, 0],
  const: [Immediate.v128, 0, 1],
  shuffle: [Immediate.shuffle, 2, 1],
  extract: [Immediate.lane, 1, 1],
  replace: [Immediate.lane, 2, 1],
  u: [Immediate.none, 1, 1],
  b: [Immediate.none, 2, 1],
  t: [Immediate.none, 3, 1],
};

/** 0xFD-prefixed opcodes: fixed 128-bit SIMD allowed, relaxed SIMD refused. */
export const SIMD_OPCODES: readonly OpcodeEntry[] = (() => {
  const t: OpcodeEntry[] = [];
  for (const line of SIMD_TABLE.trim().split(/[|\n]/)) {
    const [code, shape, name] = line.split(' ') as [string, string, string];
    const [immediate, pops, pushes] = SIMD_SHAPES[shape]!;
    t[parseInt(code, 16)] = { ...op(name, immediate, pops, pushes), vector: true };
  }
  RELAXED_SIMD_NAMES.forEach((name, i) => {
    t[0x100 + i] = { name, feature: 'relaxed SIMD' };
  });
  return t;
})();
