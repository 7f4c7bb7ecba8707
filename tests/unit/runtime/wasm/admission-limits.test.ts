import { print } from '@bytecodealliance/jco-transpile/wasm-tools';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { assertRefused, instantiateMetered, leb, moduleWithCode, vec, wat } from './admission-helpers.js';

/** The admitted module's memory type (imported from the host: `(import "tsibase" "memory" (memory …))`). */
async function memoryLine(module: string): Promise<string> {
  const text = await print(admitModule(await wat(module)).bytes);
  return /\(memory \(;0;\)[^)\n]*\)/.exec(text)![0];
}

test('the memory maximum is set to the 512-page cap when absent or larger', async () => {
  assert.is(await memoryLine('(module (memory 1))'), '(memory (;0;) 1 512)');
  assert.is(await memoryLine('(module (memory 2 65536))'), '(memory (;0;) 2 512)');
  assert.is(await memoryLine('(module (memory 512))'), '(memory (;0;) 512 512)');
  assert.equal(admitModule(await wat('(module (memory 3))')).memory, { initial: 3, maximum: 512 });
});

test('a smaller declared maximum is kept', async () => {
  assert.is(await memoryLine('(module (memory 1 10))'), '(memory (;0;) 1 10)');
});

test('memory starting above the cap is refused', async () => {
  assertRefused(await wat('(module (memory 513))'), 'WASM_LIMIT', /memory starts at 513 pages; at most 512 pages \(32768 KiB\)/);
});

test('memory.grow stops at the cap', async () => {
  const bytes = await wat('(module (memory 1) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))');
  const { exports } = instantiateMetered(bytes, { fuel: 1000n });
  assert.is(exports.grow!(511), 1);
  assert.is(exports.grow!(1), -1);
});

test('tables above 8192 elements are refused', async () => {
  assert.ok(admitModule(await wat('(module (table 8192 funcref))')));
  assertRefused(await wat('(module (table 8193 funcref))'), 'WASM_LIMIT', /table has 8193 elements; at most 8192/);
});

test('mutable globals may take 1024 bytes in total; immutable ones are free', async () => {
  const globals = (count: number, type: string, mutable: boolean) => {
    const init = type === 'v128' ? '(v128.const i64x2 0 0)' : `(${type}.const 0)`;
    return Array.from({ length: count }, () => `(global ${mutable ? `(mut ${type})` : type} ${init})`).join(' ');
  };
  assert.ok(admitModule(await wat(`(module ${globals(128, 'i64', true)} ${globals(500, 'i64', false)})`)));
  assertRefused(await wat(`(module ${globals(128, 'i64', true)} ${globals(1, 'i32', true)})`), 'WASM_LIMIT', /mutable globals take 1028 bytes; at most 1024/);
  assertRefused(await wat(`(module ${globals(65, 'v128', true)})`), 'WASM_LIMIT', /1040 bytes/);
});

test('code above 8 MiB is refused before it is read', () => {
  const huge = new Uint8Array(8 * 1024 * 1024 + 1);
  assertRefused(huge, 'WASM_LIMIT', /module has 8388609 bytes; at most 8388608/);
});

test('functions with more locals than the engine takes are refused', () => {
  const locals = (count: number) => vec([...leb(count), 0x7f]);
  assert.ok(admitModule(moduleWithCode([], locals(49_998))));
  assertRefused(moduleWithCode([], locals(49_999)), 'WASM_LIMIT', /function 0 has more than 49998 locals/);
  assertRefused(moduleWithCode([], vec([...leb(0xffffffff), 0x7f])), 'WASM_LIMIT', /more than 49998 locals/);
});

test('limits are options', async () => {
  const bytes = await wat('(module (memory 4) (table 10 funcref) (global (mut i64) (i64.const 0)))');
  assertRefused(bytes, 'WASM_LIMIT', /memory starts at 4 pages; at most 2/, { maxMemoryPages: 2 });
  assertRefused(bytes, 'WASM_LIMIT', /table has 10 elements; at most 5/, { maxTableElements: 5 });
  assertRefused(bytes, 'WASM_LIMIT', /mutable globals take 8 bytes; at most 4/, { maxMutableGlobalBytes: 4 });
  assertRefused(bytes, 'WASM_LIMIT', /at most 16 are allowed/, { maxCodeBytes: 16 });
  assert.equal(admitModule(bytes, { maxMemoryPages: 8 }).memory, { initial: 4, maximum: 8 });
});

test.run();
