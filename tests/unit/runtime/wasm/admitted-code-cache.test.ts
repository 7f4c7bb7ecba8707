// The admitted-code cache (runtime/wasm/admitted-code-cache.ts): an engine of another process
// takes the admitted module from disk, byte for byte what admission gives, and runs it alike;
// an entry that is torn, corrupt, for other code or for other admission limits is never used.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { AdmittedCodeCache, CACHE_DIR_ENV, defaultAdmittedCodeDir } from '../../../../runtime/wasm/admitted-code-cache.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { wat } from './admission-helpers.js';
import { MODULE, withInstance } from './fresh-state.js';

const test = suite<{ dir: string; code: Uint8Array; other: Uint8Array; chain: TestChain }>('admitted-code cache');

test.before(async (ctx) => {
  ctx.code = await wat(MODULE);
  ctx.other = await wat('(module (func (export "x") (result i32) (i32.const 5)))');
  ctx.chain = TestChain.open();
});
test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-admitted-'));
});
test.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));
test.after(({ chain }) => chain.close());

/** The one entry file under `dir`. */
function entryFile(dir: string): string {
  const [fingerprint, ...more] = readdirSync(dir);
  assert.is(more.length, 0, 'one fingerprint');
  const entries = readdirSync(join(dir, fingerprint!));
  assert.is(entries.length, 1, 'one entry');
  return join(dir, fingerprint!, entries[0]!);
}

const startValue = (engine: Engine, chain: TestChain, code: Uint8Array) =>
  withInstance(engine, chain.store, code, (instance) => (instance.exports.i as () => number)());

test('an engine keeps what admission gives, and another engine runs it from the cache alike', ({ dir, code, chain }) => {
  const cache = new AdmittedCodeCache(dir);
  assert.is(cache.get(code), undefined, 'nothing before the first admission');
  assert.is(startValue(new Engine({ admittedCodeDir: dir }), chain, code), 8);
  const cached = cache.get(code);
  const admitted = admitModule(code);
  assert.ok(cached, 'the engine kept the admitted module');
  assert.equal(cached.bytes, admitted.bytes, 'the metered bytes are admission\'s');
  assert.equal(
    { abi: cached.abi, imports: cached.imports, memory: cached.memory, mutableGlobals: cached.mutableGlobals, resettable: cached.resettable },
    { abi: admitted.abi, imports: admitted.imports, memory: admitted.memory, mutableGlobals: admitted.mutableGlobals, resettable: admitted.resettable },
  );
  assert.is(startValue(new Engine({ admittedCodeDir: dir }), chain, code), 8, 'a second engine runs the cached module');
});

test('a corrupt or torn entry is not used, and the next admission writes it whole again', ({ dir, code, chain }) => {
  new Engine({ admittedCodeDir: dir }).admitCode(new Uint8Array(32), code);
  const file = entryFile(dir);
  const whole = readFileSync(file);
  const flipped = Buffer.from(whole);
  flipped[flipped.length - 3]! ^= 0x40;
  for (const [what, content] of [['a flipped byte', flipped], ['a torn file', whole.subarray(0, whole.length - 10)], ['an empty file', Buffer.alloc(0)]] as const) {
    writeFileSync(file, content);
    assert.is(new AdmittedCodeCache(dir).get(code), undefined, what);
  }
  assert.is(startValue(new Engine({ admittedCodeDir: dir }), chain, code), 8);
  assert.equal(readFileSync(file), whole, 'admitted again and kept whole');
});

test('an entry holds the code it was made from: another code\'s entry under its name is refused', ({ dir, code, other }) => {
  const cache = new AdmittedCodeCache(dir);
  new Engine({ admittedCodeDir: dir }).admitCode(new Uint8Array(32), other);
  const otherFile = entryFile(dir);
  cache.put(code, admitModule(code));
  const codeFile = readdirSync(join(otherFile, '..')).map((name) => join(otherFile, '..', name)).find((f) => f !== otherFile)!;
  writeFileSync(codeFile, readFileSync(otherFile));
  assert.is(cache.get(code), undefined);
});

test('other admission limits do not find the entries of the default ones', ({ dir, code }) => {
  new Engine({ admittedCodeDir: dir }).admitCode(new Uint8Array(32), code);
  assert.ok(new AdmittedCodeCache(dir).get(code));
  assert.is(new AdmittedCodeCache(dir, { maxMemoryPages: 16 }).get(code), undefined);
});

test('a cache that cannot be written fails nothing', ({ dir, code, chain }) => {
  // A file where the cache's folder would be: no one, root included, can create it.
  writeFileSync(join(dir, 'file'), '');
  const unwritable = join(dir, 'file', 'admitted');
  assert.is(startValue(new Engine({ admittedCodeDir: unwritable }), chain, code), 8);
  assert.is(new AdmittedCodeCache(unwritable).get(code), undefined);
});

test('TSIBASE_CACHE_DIR names the folder, empty turns the cache off; else the user\'s cache folder', () => {
  assert.is(defaultAdmittedCodeDir({ [CACHE_DIR_ENV]: '/x' }), join('/x', 'admitted'));
  assert.is(defaultAdmittedCodeDir({ [CACHE_DIR_ENV]: '' }), undefined);
  assert.is(defaultAdmittedCodeDir({ XDG_CACHE_HOME: '/c' }), join('/c', 'tsibase', 'admitted'));
});

test.run();
