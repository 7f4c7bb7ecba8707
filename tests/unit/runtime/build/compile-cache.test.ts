// The compile cache (runtime/build/compile-cache.ts, docs/design.md decision 4): a module is taken
// from it only while every file its compile read, or looked for and did not find, is as it was.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CompileCache, textDigest } from '../../../../runtime/build/compile-cache.js';
import { compileService } from '../../../../runtime/build/compile-service.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-compile-cache-'));
  dirs.push(dir);
  return dir;
}
test.after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test('a kept module comes back while the files its compile read are unchanged', () => {
  const dir = tempDir();
  const source = join(dir, 'a.ts');
  writeFileSync(source, 'one');
  const cache = new CompileCache(join(dir, 'cache'), 'toolchain 1');
  const key = cache.keyOf({ entry: 'a.ts' });
  assert.is(cache.get(key), null);
  cache.put(key, { [source]: textDigest('one') }, new Uint8Array([1, 2, 3]));
  assert.equal([...cache.get(key)!], [1, 2, 3]);
  writeFileSync(source, 'two');
  assert.is(cache.get(key), null, 'a changed file');
  writeFileSync(source, 'one');
  assert.equal([...cache.get(key)!], [1, 2, 3]);
  rmSync(source);
  assert.is(cache.get(key), null, 'a file gone');
});

test('a file the compile looked for and did not find must still be missing', () => {
  const dir = tempDir();
  const probed = join(dir, 'lib.ts');
  const cache = new CompileCache(join(dir, 'cache'), 'toolchain 1');
  const key = cache.keyOf({ entry: 'a.ts' });
  cache.put(key, { [probed]: null }, new Uint8Array([7]));
  assert.equal([...cache.get(key)!], [7]);
  writeFileSync(probed, 'export const x = 1;');
  assert.is(cache.get(key), null);
});

test('the key covers the toolchain and the inputs known before the compile', () => {
  const dir = join(tempDir(), 'cache');
  const a = new CompileCache(dir, 'toolchain 1');
  const b = new CompileCache(dir, 'toolchain 2');
  assert.is.not(a.keyOf({ entry: 'a.ts' }), b.keyOf({ entry: 'a.ts' }));
  assert.is.not(a.keyOf({ entry: 'a.ts', sources: { 'x.ts': '1' } }), a.keyOf({ entry: 'a.ts', sources: { 'x.ts': '2' } }));
  a.put(a.keyOf({ entry: 'a.ts' }), {}, new Uint8Array([1]));
  assert.is(b.get(b.keyOf({ entry: 'a.ts' })), null);
});

const service = (answer: number) => `
import { check } from "tsibase/sdk";

@service("cachetest")
export class CacheTest {
  @action
  answer(): u32 { check(true, "never"); return ${answer}; }
}
`;

test('compileService with a cache: the same bytes as without it, and an edited source is compiled again', async () => {
  const project = tempDir();
  const cacheDir = join(project, 'cache');
  mkdirSync(join(project, 'service'));
  const entry = join(project, 'service', 'index.ts');
  writeFileSync(entry, service(41));
  const fresh = await compileService('service/index.ts', {}, project);
  const first = await compileService('service/index.ts', {}, project, cacheDir);
  assert.ok(Buffer.from(first.binary).equals(Buffer.from(fresh.binary)));
  const [record] = readdirSync(cacheDir);
  const reads = (JSON.parse(readFileSync(join(cacheDir, record!), 'utf8')) as { reads: Record<string, string | null> }).reads;
  assert.is(reads[entry], textDigest(service(41)), 'the entry is among the reads');
  const again = await compileService('service/index.ts', {}, project, cacheDir);
  assert.ok(Buffer.from(again.binary).equals(Buffer.from(first.binary)));
  assert.equal(again.schema, first.schema);
  writeFileSync(entry, service(42));
  const edited = await compileService('service/index.ts', {}, project, cacheDir);
  assert.not.ok(Buffer.from(edited.binary).equals(Buffer.from(first.binary)));
  assert.ok(Buffer.from(edited.binary).equals(Buffer.from((await compileService('service/index.ts', {}, project)).binary)));
});

test.run();
