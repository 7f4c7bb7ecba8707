// The test runner (scripts/run-tests.js) that `make test` and CI use: a test file that hangs is
// killed with the processes it started and counts as a failure, and the files after it still run;
// a file that ends the process counts as a failure too. The closing line counts them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const SCRIPT = join(process.cwd(), 'scripts', 'run-tests.js');
const UVU = join(process.cwd(), 'node_modules', 'uvu', 'dist', 'index.mjs');
const ASSERT = join(process.cwd(), 'node_modules', 'uvu', 'assert', 'index.mjs');

/** A test file of `count` tests that pass, then `tail` (code run by the last test). */
function testFile(count: number, tail = ''): string {
  const tests = Array.from({ length: count }, (_, i) => `test('t${i}', () => assert.ok(true));`).join('\n');
  return `import { test } from '${UVU}';\nimport * as assert from '${ASSERT}';\n${tests}\n${tail}\ntest.run();\n`;
}

interface Context { dir: string }
const runner = suite<Context>('test runner');

runner.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-runner-'));
  writeFileSync(join(ctx.dir, 'package.json'), '{ "type": "module" }');
});

runner.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

runner('a hung file is killed with its child processes; the files after it run', (ctx) => {
  const pidFile = join(ctx.dir, 'child.pid');
  writeFileSync(join(ctx.dir, 'a.test.js'), testFile(2));
  // b starts a process of its own, then never ends.
  writeFileSync(join(ctx.dir, 'b.test.js'), testFile(1, `
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
test('hangs', () => {
  writeFileSync('${pidFile}', String(spawn('sleep', ['600']).pid));
  return new Promise(() => setInterval(() => {}, 1000));
});`));
  writeFileSync(join(ctx.dir, 'c.test.js'), testFile(3));
  const r = spawnSync(process.execPath, [SCRIPT, ctx.dir], { encoding: 'utf8', env: { ...process.env, TSIBASE_TEST_FILE_LIMIT_MS: '3000' } });
  assert.is(r.status, 1, r.stderr);
  assert.match(r.stdout, /b\.test\.js: ran longer than [\d.]+ minutes and was killed/);
  assert.is(r.stdout.trim().split('\n').pop(), '5 passed, 1 failed', r.stdout);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.not.ok(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '), `the hung file's child ${pid} is gone`);
});

runner('a file that ends the test process is a failure; the files after it run', (ctx) => {
  writeFileSync(join(ctx.dir, 'a.test.js'), testFile(1, "test('exits', () => process.exit(0));"));
  writeFileSync(join(ctx.dir, 'b.test.js'), testFile(2));
  const r = spawnSync(process.execPath, [SCRIPT, ctx.dir], { encoding: 'utf8' });
  assert.is(r.status, 1, r.stderr);
  assert.match(r.stdout, /a\.test\.js: ended the test process \(exit \d+\)/);
  assert.is(r.stdout.trim().split('\n').pop(), '2 passed, 1 failed', r.stdout);
});

runner('files that pass give an exit status of 0', (ctx) => {
  writeFileSync(join(ctx.dir, 'a.test.js'), testFile(2));
  writeFileSync(join(ctx.dir, 'b.test.js'), testFile(1));
  const r = spawnSync(process.execPath, [SCRIPT, ctx.dir], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stdout);
  assert.is(r.stdout.trim().split('\n').pop(), '3 passed, 0 failed');
});

runner.run();
