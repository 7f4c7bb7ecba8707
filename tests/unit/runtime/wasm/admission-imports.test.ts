import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HOST_IMPORTS } from '../../../../host-api/abi/imports.js';
import { HANDLE_HOST_IMPORTS } from '../../../../host-api/abi/handle-imports.js';
import { HANDLE_ABI_MARKERS } from '../../../../host-api/abi/abi-generation.js';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { assertRefused, wat } from './admission-helpers.js';

function importDeclaration(name: string, params: readonly string[], results: readonly string[], id = name): string {
  const p = params.length ? ` (param ${params.join(' ')})` : '';
  const r = results.length ? ` (result ${results.join(' ')})` : '';
  return `(import "env" "${name}" (func $${id}${p}${r}))`;
}

test('every host ABI import, with every signature it allows, is admitted', async () => {
  const declarations = Object.entries(HOST_IMPORTS).flatMap(([name, signatures]) =>
    signatures.map((s, i) => importDeclaration(name, s.params, s.results, `${name}_${i}`)),
  );
  const admitted = admitModule(await wat(`(module ${declarations.join('\n')})`));
  assert.equal([...admitted.imports].sort(), Object.keys(HOST_IMPORTS).sort());
});

test('every import of the handle generation is admitted, and the module is held to that generation', async () => {
  const declarations = Object.entries(HANDLE_HOST_IMPORTS).flatMap(([name, signatures]) =>
    signatures.map((s, i) => importDeclaration(name, s.params, s.results, `${name}_${i}`)),
  );
  const admitted = admitModule(await wat(`(module ${declarations.join('\n')})`));
  assert.is(admitted.abi, 'handle');
  assert.equal([...admitted.imports].sort(), Object.keys(HANDLE_HOST_IMPORTS).sort());
  assert.is(admitModule(await wat(`(module ${importDeclaration('kvGet', ['i32', 'i32', 'i32'], ['i32'])})`)).abi, 'db-id');
});

test('any one handle import makes a handle module, which may not import what only the database-id generation has', async () => {
  for (const marker of HANDLE_ABI_MARKERS) {
    const [signature] = HANDLE_HOST_IMPORTS[marker];
    assert.is(admitModule(await wat(`(module ${importDeclaration(marker, signature.params, signature.results)})`)).abi, 'handle', marker);
  }
  const kvOpen = importDeclaration('kvOpen', ['i32', 'i32', 'i32', 'i32'], ['i32']);
  for (const [name, params, results] of [['putSequential', ['i32', 'i32', 'i32'], ['i64']], ['socketAutoClose', ['i32', 'i32'], ['i32']], ['setMaxTransactionTime', ['i64'], []],
    ['kvRange', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32']]] as const) {
    assertRefused(await wat(`(module ${kvOpen} ${importDeclaration(name, params, results)})`), 'WASM_FORBIDDEN_IMPORT',
      new RegExp(`import env\\.${name} is not part of the host ABI \\(the module imports kv handles`));
  }
  // call has no two-argument form there, socketSend takes its flags.
  assertRefused(await wat(`(module ${kvOpen} ${importDeclaration('call', ['i32', 'i32'], ['i32'])})`), 'WASM_FORBIDDEN_IMPORT', /env\.call has signature \(i32, i32\) -> i32 but the host ABI defines \(i32, i32, i64\) -> i32 \(the module imports kv handles/);
  assertRefused(await wat(`(module ${kvOpen} ${importDeclaration('socketSend', ['i32', 'i32', 'i32'], ['i32'])})`), 'WASM_FORBIDDEN_IMPORT', /socketSend has signature \(i32, i32, i32\) -> i32/);
  // A name only the handle generation has decides it too: a module of it need not use kv at all.
  assert.is(admitModule(await wat(`(module ${importDeclaration('setMaxCpuTime', ['i64'], [])} ${importDeclaration('socketSend', ['i32', 'i32', 'i32', 'i32'], ['i32'])})`)).abi, 'handle');
});

test('call accepts its optional flags argument', async () => {
  const two = admitModule(await wat(`(module ${importDeclaration('call', ['i32', 'i32'], ['i32'])})`));
  const three = admitModule(await wat(`(module ${importDeclaration('call', ['i32', 'i32', 'i64'], ['i32'])})`));
  assert.equal(two.imports, ['call']);
  assert.equal(three.imports, ['call']);
});

test('the ecdsaVerify extension has its documented signature', async () => {
  const ok = await wat(`(module ${importDeclaration('ecdsaVerify', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32'])})`);
  assert.equal(admitModule(ok).imports, ['ecdsaVerify']);
  const digestOnly = await wat(`(module ${importDeclaration('ecdsaVerify', ['i32', 'i32', 'i32', 'i32'], ['i32'])})`);
  assertRefused(digestOnly, 'WASM_FORBIDDEN_IMPORT', /env\.ecdsaVerify has signature \(i32, i32, i32, i32\) -> i32/);
});

test('names outside the host ABI are refused', async () => {
  assertRefused(await wat(`(module ${importDeclaration('foo', [], [])})`), 'WASM_FORBIDDEN_IMPORT', /import env\.foo is not part of the host ABI/);
  // AssemblyScript's default abort handler must be mapped to abortMessage by the SDK.
  const abort = await wat(`(module ${importDeclaration('abort', ['i32', 'i32', 'i32', 'i32'], [])})`);
  assertRefused(abort, 'WASM_FORBIDDEN_IMPORT', /env\.abort is not part of the host ABI/);
  const wasi = await wat('(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32))))');
  assertRefused(wasi, 'WASM_FORBIDDEN_IMPORT', /wasi_snapshot_preview1\.fd_write is not part of the host ABI/);
  const otherModule = await wat('(module (import "host" "kvGet" (func (param i32 i32 i32) (result i32))))');
  assertRefused(otherModule, 'WASM_FORBIDDEN_IMPORT', /host\.kvGet is not part of the host ABI/);
});

test('host ABI names with a wrong signature are refused', async () => {
  const cases: [string, string[], string[], RegExp][] = [
    ['kvGet', ['i32', 'i32'], ['i32'], /env\.kvGet has signature \(i32, i32\) -> i32 but the host ABI defines \(i32, i32, i32\) -> i32/],
    ['kvGet', ['i32', 'i32', 'i32'], [], /env\.kvGet has signature \(i32, i32, i32\) -> \(\)/],
    ['putSequential', ['i32', 'i32', 'i32'], ['i32'], /putSequential .*-> i32 but the host ABI defines \(i32, i32, i32\) -> i64/],
    ['getSequential', ['i32', 'i32'], ['i32'], /getSequential has signature \(i32, i32\) -> i32/],
    ['writeConsole', ['i64', 'i32'], [], /writeConsole has signature \(i64, i32\)/],
    ['setMaxTransactionTime', ['f64'], [], /setMaxTransactionTime has signature \(f64\) -> \(\)/],
    ['call', ['i32', 'i32', 'i32'], ['i32'], /env\.call .* but the host ABI defines \(i32, i32\) -> i32 or \(i32, i32, i64\) -> i32/],
  ];
  for (const [name, params, results, reason] of cases) {
    assertRefused(await wat(`(module ${importDeclaration(name, params, results)})`), 'WASM_FORBIDDEN_IMPORT', reason);
  }
});

test('imported memories, tables and globals are refused', async () => {
  assertRefused(await wat('(module (import "env" "memory" (memory 1)))'), 'WASM_FORBIDDEN_IMPORT', /imported memory env\.memory is not allowed/);
  assertRefused(await wat('(module (import "env" "table" (table 1 funcref)))'), 'WASM_FORBIDDEN_IMPORT', /imported table env\.table/);
  assertRefused(await wat('(module (import "env" "g" (global i32)))'), 'WASM_FORBIDDEN_IMPORT', /imported global env\.g/);
  assertRefused(await wat('(module (import "tsibase" "fuel" (global (mut i64))))'), 'WASM_FORBIDDEN_IMPORT', /imported global tsibase\.fuel/);
});

test('the result lists each used import once and the exports', async () => {
  const admitted = admitModule(await wat(`(module
    ${importDeclaration('kvGet', ['i32', 'i32', 'i32'], ['i32'], 'a')}
    ${importDeclaration('kvGet', ['i32', 'i32', 'i32'], ['i32'], 'b')}
    ${importDeclaration('setRetval', ['i32', 'i32'], [], 'c')}
    (memory (export "memory") 1)
    (func (export "called") (param i64 i64)))`));
  assert.equal(admitted.imports, ['kvGet', 'setRetval']);
  assert.equal(admitted.exports, [
    { name: 'memory', kind: 'memory' },
    { name: 'called', kind: 'function' },
  ]);
});

test.run();
