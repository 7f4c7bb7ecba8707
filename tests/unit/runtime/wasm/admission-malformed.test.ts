import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AdmissionError, admitModule } from '../../../../runtime/wasm/admission/index.js';
import { readModule } from '../../../../runtime/wasm/admission/binary/module-reader.js';
import { WebAssemblyJs, assertRefused, binaryModule, moduleWithCode, vec, wat } from './admission-helpers.js';

const sample = await wat(`(module
  (import "env" "writeConsole" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (global $counter (mut i32) (i32.const 0))
  (table 2 funcref)
  (elem (i32.const 0) $f $g)
  (data (i32.const 16) "hello")
  (func $f (export "f") (param i32) (result i32)
    (global.set $counter (i32.add (global.get $counter) (i32.const 1)))
    (call $log (i32.const 16) (i32.const 5))
    (call_indirect (param i32) (result i32) (local.get 0) (i32.const 1)))
  (func $g (param i32) (result i32) (i32.mul (local.get 0) (i32.const 2))))`);

test('bad magic and bad version', () => {
  assertRefused(Uint8Array.of(0x00, 0x61, 0x73, 0x6e, 0x01, 0, 0, 0), 'WASM_MALFORMED', /bad magic/);
  assertRefused(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x02, 0, 0, 0), 'WASM_MALFORMED', /version/);
  // A WebAssembly component (layer 1) is not a core module.
  assertRefused(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00), 'WASM_MALFORMED', /version/);
  assertRefused(Uint8Array.of(0x00, 0x61, 0x73), 'WASM_MALFORMED', /shorter than the 8-byte header/);
});

test('every truncation inside a section is malformed; cuts at section boundaries never crash', () => {
  const boundaries = new Set([8, ...readModule(sample).sections.map((s) => s.end)]);
  for (let length = 0; length < sample.length; length++) {
    const cut = sample.subarray(0, length);
    let error: unknown;
    try {
      admitModule(cut);
    } catch (e) {
      error = e;
    }
    if (boundaries.has(length)) {
      assert.ok(error === undefined || error instanceof AdmissionError, `cut at ${length}: ${String(error)}`);
    } else {
      assert.instance(error, AdmissionError, `cut at ${length} was admitted`);
      assert.is((error as AdmissionError).code, 'WASM_MALFORMED', `cut at ${length}: ${(error as AdmissionError).message}`);
    }
  }
});

test('sections out of order, duplicated or unknown', () => {
  const type = [1, vec([0x60, 0x00, 0x00])] as [number, number[]];
  const func = [3, vec([0x00])] as [number, number[]];
  assertRefused(binaryModule(func, type), 'WASM_MALFORMED', /out of order/);
  assertRefused(binaryModule(type, type), 'WASM_MALFORMED', /duplicated or out of order/);
  assertRefused(binaryModule([14, [0x00]]), 'WASM_MALFORMED', /unknown section id 14/);
  // data count (12) must come before code (10).
  assertRefused(binaryModule(type, func, [10, vec([0x02, 0x00, 0x0b])], [12, [0x00]]), 'WASM_MALFORMED', /out of order/);
});

test('section sizes must match their content', () => {
  assertRefused(binaryModule([1, [0x01, 0x60, 0x00, 0x00, 0x00]]), 'WASM_MALFORMED', /left over/);
  const overlong = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0, 0, 0, 0x01, 0x10, 0x01, 0x60, 0x00, 0x00);
  assertRefused(overlong, 'WASM_MALFORMED', /extends past the end/);
  assertRefused(binaryModule([1, [0x05, 0x60, 0x00, 0x00]]), 'WASM_MALFORMED', /does not fit/);
});

test('bad LEB128 in a section header and in an immediate', () => {
  const badSize = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0, 0, 0, 0x01, 0xff, 0xff, 0xff, 0xff, 0x7f);
  assertRefused(badSize, 'WASM_MALFORMED', /too large for u32/);
  assertRefused(moduleWithCode([0x41, 0xff, 0xff, 0xff, 0xff, 0x4f, 0x1a]), 'WASM_MALFORMED', /too large for s32/);
});

test('function and code counts must agree, bodies must end exactly', () => {
  assertRefused(binaryModule([1, vec([0x60, 0x00, 0x00])], [3, vec([0x00])]), 'WASM_MALFORMED', /1 functions declared but 0 bodies/);
  const noEnd = binaryModule([1, vec([0x60, 0x00, 0x00])], [3, vec([0x00])], [10, vec([0x02, 0x00, 0x01])]);
  assertRefused(noEnd, 'WASM_MALFORMED', /ends without a final end/);
  const trailing = binaryModule([1, vec([0x60, 0x00, 0x00])], [3, vec([0x00])], [10, vec([0x03, 0x00, 0x0b, 0x01])]);
  assertRefused(trailing, 'WASM_MALFORMED', /code after the final end/);
});

test('unknown opcodes, value types and flags', () => {
  assertRefused(moduleWithCode([0x27]), 'WASM_MALFORMED', /unknown opcode 0x27/);
  assertRefused(moduleWithCode([0xfc, 0x40]), 'WASM_MALFORMED', /unknown opcode 0xFC 0x40/);
  assertRefused(moduleWithCode([0xfd, 0xa2, 0x01]), 'WASM_MALFORMED', /unknown opcode 0xFD 0xA2/);
  assertRefused(moduleWithCode([], vec([0x01, 0x40])), 'WASM_MALFORMED', /invalid value type 0x40/);
  assertRefused(binaryModule([5, vec([0x10, 0x01])]), 'WASM_MALFORMED', /limits flags 0x10/);
  assertRefused(binaryModule([2, vec([...[0x03, 0x65, 0x6e, 0x76], ...[0x01, 0x78], 0x07])]), 'WASM_MALFORMED', /import kind 7/);
});

test('invalid UTF-8 in names', () => {
  assertRefused(binaryModule([7, vec([0x01, 0xff, 0x00, 0x00])]), 'WASM_MALFORMED', /UTF-8/);
});

test('well-formed but invalid modules are refused by the engine validator', async () => {
  const mismatch = await wat('(module (func (result i32) (i64.const 1)))');
  assertRefused(mismatch, 'WASM_INVALID', /does not validate/);
  assertRefused(await wat('(module (func (call 5)))'), 'WASM_INVALID', /missing function 5/);
  assertRefused(await wat('(module (global i32 (global.get 0)))'), 'WASM_INVALID', /imported global/);
});

test('random corruption never crashes admission and never yields an invalid module', () => {
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  let admitted = 0;
  for (let round = 0; round < 2000; round++) {
    const corrupt = sample.slice();
    for (let flips = 1 + (next() % 3); flips > 0; flips--) corrupt[8 + (next() % (corrupt.length - 8))] = next() & 0xff;
    try {
      const result = admitModule(corrupt);
      assert.ok(WebAssemblyJs.validate(result.bytes));
      admitted++;
    } catch (error) {
      assert.instance(error, AdmissionError, String(error));
    }
  }
  assert.ok(admitted > 0 && admitted < 2000);
});

test('the sample itself is admitted', () => {
  assert.ok(admitModule(sample).bytes.length > sample.length);
});

test.run();
