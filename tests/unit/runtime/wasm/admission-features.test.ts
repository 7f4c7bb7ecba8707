import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { assertRefused, binaryModule, moduleWithCode, vec, wat } from './admission-helpers.js';

/** [feature, module text, expected reason]: each must be refused as WASM_FORBIDDEN_FEATURE. */
const FORBIDDEN: [string, string, RegExp][] = [
  ['threads: shared memory', '(module (memory 1 1 shared))', /shared memory is not allowed \(feature: threads\)/],
  ['threads: atomics', '(module (memory 1) (func (drop (i32.atomic.load (i32.const 0)))))', /opcode 0xFE 0x10 \(atomic instruction\) in function 0 is not allowed \(feature: threads\)/],
  ['threads: fence', '(module (func atomic.fence))', /0xFE 0x03 .*threads/],
  ['multi-value: two results', '(module (func (result i32 i32) (i32.const 1) (i32.const 2)))', /function type 0 with 2 results is not allowed \(feature: multi-value\)/],
  ['multi-value: block params', '(module (type $t (func (param i32))) (func (i32.const 1) (block (type $t) (drop))))', /block type 0 with parameters or several results in function 0 .*multi-value/],
  ['reference types: ref.null', '(module (func (drop (ref.null func))))', /0xD0 \(ref\.null\) .*reference types/],
  ['reference types: ref.func', '(module (table 1 funcref) (elem (i32.const 0) func $f) (func $f (drop (ref.func $f))))', /0xD2 \(ref\.func\) .*reference types/],
  ['reference types: declarative segment', '(module (func $f) (elem declare func $f))', /declarative element segment is not allowed \(feature: reference types\)/],
  ['reference types: ref.is_null', '(module (func (param funcref) (drop (ref.is_null (local.get 0)))))', /funcref in function type 0 is not allowed \(feature: reference types\)/],
  ['reference types: table.get', '(module (table 1 funcref) (func (drop (table.get 0 (i32.const 0)))))', /0x25 \(table\.get\) .*reference types/],
  ['reference types: table.size', '(module (table 1 funcref) (func (drop (table.size 0))))', /0xFC 0x10 \(table\.size\) .*reference types/],
  ['reference types: two tables', '(module (table 1 funcref) (table 1 funcref))', /more than one table is not allowed \(feature: reference types\)/],
  ['reference types: externref table', '(module (table 1 externref))', /externref table .*reference types/],
  ['reference types: typed select', '(module (func (result i32) (select (result i32) (i32.const 1) (i32.const 2) (i32.const 0))))', /0x1C \(select with type\) .*reference types/],
  ['reference types: funcref global', '(module (global funcref (ref.null func)))', /funcref in global 0 .*reference types/],
  ['reference types: externref local', '(module (func (local externref)))', /externref among the locals of function 0 .*reference types/],
  ['exceptions: tag', '(module (tag $e))', /tag section is not allowed \(feature: exceptions\)/],
  ['exceptions: try_table', '(module (func (block $b (try_table (catch_all $b) (nop)))))', /0x1F \(try_table\) .*exceptions/],
  ['memory64', '(module (memory i64 1))', /64-bit memory is not allowed \(feature: memory64\)/],
  ['tail calls: return_call', '(module (func $f (return_call $f)))', /0x12 \(return_call\) in function 0 is not allowed \(feature: tail calls\)/],
  ['tail calls: return_call_indirect', '(module (table 1 funcref) (func (return_call_indirect (i32.const 0))))', /return_call_indirect.*tail calls/],
  ['relaxed SIMD', '(module (func (param v128) (result v128) (i32x4.relaxed_trunc_f32x4_s (local.get 0))))', /0xFD 0x101 \(i32x4\.relaxed_trunc_f32x4_s\) .*relaxed SIMD/],
  ['relaxed SIMD madd', '(module (func (param v128) (result v128) (f32x4.relaxed_madd (local.get 0) (local.get 0) (local.get 0))))', /f32x4\.relaxed_madd.*relaxed SIMD/],
  ['GC: struct type', '(module (type (struct (field i32))))', /type 0 is not a function type .*GC/],
  ['multi-memory: second memory', '(module (memory 1) (memory 1))', /more than one memory .*multi-memory/],
  ['extended constant expressions', '(module (global i32 (i32.add (i32.const 1) (i32.const 2))))', /arithmetic in the initialiser of global 0 .*extended constant expressions/],
];

for (const [feature, text, reason] of FORBIDDEN) {
  test(`refuses ${feature}`, async () => {
    assertRefused(await wat(text), 'WASM_FORBIDDEN_FEATURE', reason);
  });
}

// Instructions whose operands would need reference values, encoded with dummy i32 operands:
// admission refuses the opcode before any type checking.
const FORBIDDEN_CODE: [string, number[], RegExp][] = [
  ['table.set', [0x41, 0x00, 0x41, 0x00, 0x26, 0x00], /opcode 0x26 \(table\.set\) in function 0 is not allowed \(feature: reference types\)/],
  ['table.grow', [0x41, 0x00, 0x41, 0x01, 0xfc, 0x0f, 0x00, 0x1a], /opcode 0xFC 0x0F \(table\.grow\) .*reference types/],
  ['table.fill', [0x41, 0x00, 0x41, 0x00, 0x41, 0x01, 0xfc, 0x11, 0x00], /opcode 0xFC 0x11 \(table\.fill\) .*reference types/],
  ['call_ref', [0x41, 0x00, 0x14, 0x00], /opcode 0x14 \(call_ref\) .*typed function references/],
  ['ref.eq', [0x41, 0x00, 0x41, 0x00, 0xd3, 0x1a], /opcode 0xD3 \(ref\.eq\) .*GC/],
  ['throw', [0x08, 0x00], /opcode 0x08 \(throw\) .*exceptions/],
  ['legacy try', [0x06, 0x40, 0x0b], /opcode 0x06 \(try\) .*exceptions/],
];

for (const [what, code, reason] of FORBIDDEN_CODE) {
  test(`refuses ${what}`, () => {
    assertRefused(moduleWithCode(code), 'WASM_FORBIDDEN_FEATURE', reason);
  });
}

test('refuses hand-encoded forbidden immediates', () => {
  // call_indirect through table 1
  const twoTableCall = moduleWithCode([0x41, 0x00, 0x11, 0x00, 0x01]);
  assertRefused(twoTableCall, 'WASM_FORBIDDEN_FEATURE', /call_indirect through a table other than table 0 .*reference types/);
  // i32.load with an explicit memory index (alignment flag bit 6)
  assertRefused(moduleWithCode([0x41, 0x00, 0x28, 0x42, 0x01, 0x00, 0x1a]), 'WASM_FORBIDDEN_FEATURE', /explicit memory index .*multi-memory/);
  // memory.size of memory 1
  assertRefused(moduleWithCode([0x3f, 0x01, 0x1a]), 'WASM_FORBIDDEN_FEATURE', /memory\.size on a memory other than memory 0 .*multi-memory/);
  // a block returning funcref
  assertRefused(moduleWithCode([0x02, 0x70, 0xd0, 0x70, 0x0b, 0x1a]), 'WASM_FORBIDDEN_FEATURE', /block returning a reference .*reference types/);
  // a GC instruction and a memory with a custom page size
  assertRefused(moduleWithCode([0xfb, 0x00]), 'WASM_FORBIDDEN_FEATURE', /0xFB 0x00 \(GC instruction\) .*GC/);
  assertRefused(binaryModule([5, vec([0x09, 0x01, 0x02, 0x10])]), 'WASM_FORBIDDEN_FEATURE', /custom page size/);
  // a data segment for memory 1
  assertRefused(binaryModule([11, vec([0x02, 0x01, 0x41, 0x00, 0x0b, 0x00])]), 'WASM_FORBIDDEN_FEATURE', /second memory .*multi-memory/);
  // memory.discard (memory control)
  assertRefused(moduleWithCode([0x41, 0x00, 0x41, 0x00, 0xfc, 0x12, 0x00]), 'WASM_FORBIDDEN_FEATURE', /memory\.discard.*memory control/);
});

test('admits bulk memory, sign extension, non-trapping float-to-int and SIMD', async () => {
  const admitted = admitModule(await wat(`(module
    (memory 1)
    (table 4 funcref)
    (data $passive "abcdefgh")
    (data (i32.const 0) "xyz")
    (elem $funcs func $f $f)
    (elem (i32.const 0) func $f)
    (global $v (mut v128) (v128.const i32x4 1 2 3 4))
    (func $f (param i32) (result i32)
      (memory.init $passive (i32.const 8) (i32.const 0) (i32.const 8))
      (memory.copy (i32.const 32) (i32.const 8) (i32.const 8))
      (memory.fill (i32.const 64) (i32.const 7) (i32.const 16))
      (data.drop $passive)
      (table.init $funcs (i32.const 1) (i32.const 0) (i32.const 2))
      (elem.drop $funcs)
      (table.copy (i32.const 2) (i32.const 0) (i32.const 2))
      (drop (i64.extend32_s (i64.extend8_s (i64.const 255))))
      (drop (i32.extend16_s (i32.const 65535)))
      (drop (i32.trunc_sat_f64_u (f64.const -1)))
      (drop (i64.trunc_sat_f32_s (f32.const 1e30)))
      (global.set $v (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 31 (global.get $v) (v128.load offset=16 (i32.const 0))))
      (v128.store32_lane 1 (i32.const 0) (global.get $v))
      (i32x4.extract_lane 2 (i32x4.add (global.get $v) (v128.load8_splat (i32.const 3))))))`));
  assert.ok(admitted.bytes.length > 0);
});

test.run();
