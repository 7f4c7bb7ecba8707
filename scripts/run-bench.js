#!/usr/bin/env node
// Runs every compiled benchmark under dist/bench (or the ones named on the command line)
// one after another; each prints its own figures.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'dist', 'bench');
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((name) => !wanted.length || wanted.includes(name))
  .map((name) => join(dir, name, 'main.js'))
  .filter((file) => existsSync(file));
let failed = 0;
for (const file of benches) {
  const r = spawnSync(process.execPath, [file], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
