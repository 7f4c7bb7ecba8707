// Account and method names in AssemblyScript against host-api's implementation (docs/formats.md §4-5).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  accountNameFromNumber, accountNumberFromName, compileSchema, isValidAccountName, tryMethodNumberFromName,
} from '../../../host-api/index.js';
import { Random } from '../../lib/random.js';
import { utf8 } from './program.js';
import { sdkProgram } from './sdk-program.js';

const u64 = compileSchema({}).type<bigint>('u64');
const bool = compileSchema({}).type<boolean>('bool');

// Vectors live in the source tree; tests run from dist/tests/unit/services-wasm.
const METHOD_VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'tests', 'vectors', 'method-numbers.json');

const NAMES = ['', 'a', 'abc123', 'spiderman', 'alice', 'tokens', '0', 'zzzzzzzzzz', 'a+42', 'Alice', 'verify-sig', 'a-b-c', 'x+255'];
const INVALID = ['-a', 'a-', 'a--b', 'abcdefghijk', 'a_b', 'é', 'a+0', 'a+256', 'a+', 'a+01'];

test('names to numbers match host-api (docs/formats.md §4 examples included)', async () => {
  const p = await sdkProgram();
  for (const name of NAMES) {
    assert.is(u64.unpack(p.run('accountNumber', utf8(name))), accountNumberFromName(name), name);
    assert.is(bool.unpack(p.run('isValidAccountName', utf8(name))), true, name);
  }
  assert.is(u64.unpack(p.run('accountNumber', utf8('a'))), 331048532879956736n);
});

test('invalid names abort and are not valid', async () => {
  const p = await sdkProgram();
  for (const name of INVALID) {
    assert.is(isValidAccountName(name), false, `host-api accepts ${name}`);
    assert.is(bool.unpack(p.run('isValidAccountName', utf8(name))), false, name);
    assert.ok(p.abortOf('accountNumber', utf8(name))?.includes('invalid account name'), name);
  }
});

test('numbers to names match host-api, random ranks included', async () => {
  const p = await sdkProgram();
  const rnd = new Random(7);
  const numbers = NAMES.map((n) => accountNumberFromName(n));
  for (let i = 0; i < 300; i++) numbers.push((BigInt(rnd.int(2 ** 26)) * BigInt(rnd.int(2 ** 26)) % 4655369993624389n) * 256n + BigInt(rnd.int(256)));
  for (const n of numbers) {
    const key = p.run('accountName', u64.pack(n));
    // The program returns the name key-encoded (00 00 terminated); names have no 00 bytes.
    assert.is(new TextDecoder().decode(key.subarray(0, key.length - 2)), accountNameFromNumber(n), String(n));
  }
  assert.ok(p.abortOf('accountName', u64.pack(4655369993624389n * 256n)) !== undefined, 'rank past zzzzzzzzzz');
});

test('method numbers match host-api: the docs/formats.md §5 examples, hashes, hash forms, random names', async () => {
  const p = await sdkProgram();
  const method = (name: string) => u64.unpack(p.run('methodNumber', utf8(name)));
  const examples: [string, bigint][] = [
    ['a', 32783n], ['b', 196n], ['credit', 1492602n], ['transfer', 885881747009n], ['spiderman', 311625498215n],
    ['abc123', 691485674271n], ['natasharomanoff', 6905860632893337981n], ['NATASHAROMANOFF', 679355919866582572n],
  ];
  for (const [name, number] of examples) assert.is(method(name), number, name);
  const rnd = new Random(11);
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
  const names = ['', 'serveSys', 'checkAuthSys', 'a_very_long_method_name_that_hashes', '#psaoryoiluhlrpyn', '#short', 'bad-name', 'é', 'x y'];
  for (let i = 0; i < 400; i++) names.push(Array.from({ length: 1 + rnd.int(40) }, () => chars[rnd.int(chars.length)]).join(''));
  for (const name of names) assert.is(method(name), tryMethodNumberFromName(name), name);
});

test('method numbers of names whose code needs more than 64 bits are hashes, as psibase computes them', async () => {
  const p = await sdkProgram();
  const method = (name: string) => u64.unpack(p.run('methodNumber', utf8(name)));
  assert.is(method('checkFirstAuth'), 14783562261609992078n);
  assert.is(method('removeCallback'), 10920475999089096139n);
  const vectors = (JSON.parse(readFileSync(METHOD_VECTORS, 'utf8')) as { names: [string, string, string][] }).names;
  for (const [name, number] of vectors) assert.is(method(name), BigInt(number), name);
});

test.run();
