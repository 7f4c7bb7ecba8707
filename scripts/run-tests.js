#!/usr/bin/env node
// Runs every uvu test tree (unit, integration, e2e) in its own process and prints one
// closing line `N passed, N failed` over all of them. A tree whose process dies before
// uvu prints its summary counts as one failure, so a crash can never look like a pass.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const uvu = join(root, 'node_modules', 'uvu', 'bin.js');
const trees = (process.argv.length > 2 ? process.argv.slice(2) : ['unit', 'integration', 'e2e'])
  .map((name) => join(root, 'dist', 'tests', name))
  .filter((dir) => existsSync(dir) && hasTests(dir));

function hasTests(dir) {
  return readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.test.js'));
}

function runTree(dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [uvu, dir, '\\.test\\.js$'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => {
      const total = /Total:\s+(\d+)/.exec(out);
      const passed = /Passed:\s+(\d+)/.exec(out);
      if (!total || !passed) {
        console.log(`\n${dir}: test process exited (${code}) without a summary`);
        resolve({ passed: 0, failed: 1 });
        return;
      }
      const failed = Number(total[1]) - Number(passed[1]);
      resolve({ passed: Number(passed[1]), failed: failed || (code === 0 ? 0 : 1) });
    });
  });
}

let passed = 0;
let failed = 0;
for (const dir of trees) {
  const r = await runTree(dir);
  passed += r.passed;
  failed += r.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
