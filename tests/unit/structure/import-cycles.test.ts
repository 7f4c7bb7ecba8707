// Files import one way: no circle of imports among runtime/ and host-api/, nor among the
// AssemblyScript of services-wasm/ (extensionless imports), type-only imports included. The
// check itself is scripts/check-import-cycles.js, shown here to find a circle when there is one.
// Between folders, the layer order of docs/design.md ("Layers") says which way: layer-order.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const SCRIPT = join(process.cwd(), 'scripts', 'check-import-cycles.js');

function check(...folders: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...folders], { encoding: 'utf8' });
}

test('runtime/ and host-api/ have no import cycle', () => {
  const r = check('runtime', 'host-api');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /import cycles: none among \d+ files/);
});

test('services-wasm/ (AssemblyScript, extensionless imports) has no import cycle', () => {
  const r = check('services-wasm');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /import cycles: none among \d+ files/);
});

test('a circle through extensionless imports (AssemblyScript) is found, through a folder index too', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-cycles-'));
  try {
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'a.ts'), 'import { b } from "./lib";\nexport const a = b;\n');
    writeFileSync(join(dir, 'lib', 'index.ts'), 'export { b } from "./b";\n');
    writeFileSync(join(dir, 'lib', 'b.ts'), 'import { a } from "../a";\nexport const b: i32 = 1;\nexport const c = a;\n');
    const r = check(dir);
    assert.is(r.status, 1);
    assert.match(r.stderr, /import cycle of 3 files: .*a\.ts, .*lib\/b\.ts, .*lib\/index\.ts/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a circle through a type-only import is found and named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-cycles-'));
  try {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'a.ts'), "import { b } from './sub/b.js';\nexport const a = b;\n");
    writeFileSync(join(dir, 'sub', 'b.ts'), "import type { C } from '../c.js';\nexport const b: C | 1 = 1;\n");
    writeFileSync(join(dir, 'c.ts'), "export type { a as C } from './a.js';\n");
    writeFileSync(join(dir, 'free.ts'), "import { a } from './a.js';\nexport const free = a;\n");
    const r = check(dir);
    assert.is(r.status, 1);
    assert.match(r.stderr, /import cycle of 3 files: .*a\.ts, .*c\.ts, .*sub\/b\.ts/);
    assert.not.match(r.stderr, 'free.ts');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
