#!/usr/bin/env node
// Runs every uvu test tree (unit, integration, e2e) in its own process and prints one closing
// line `N passed, N failed` over all of them. A test file that runs longer than FILE_LIMIT_MS is
// taken as hung: its process is killed with every process it started (the nodes of a test) and
// the file counts as one failure; so does a file during which the process dies. Either way the
// tree goes on with the files after it, so one file can neither hold up nor hide the rest, and a
// crash can never look like a pass.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const uvu = join(root, 'node_modules', 'uvu', 'bin.js');
/** The longest a test file may run (the slowest take about two minutes); the runner's own test sets it lower. */
const FILE_LIMIT_MS = Number(process.env.TSIBASE_TEST_FILE_LIMIT_MS) || 8 * 60_000;
const ANSI = /\x1b\[[0-9;]*m/g;
/** How many of the slowest files the closing summary names (make test has a time budget). */
const SLOWEST_SHOWN = 12;
/** Each test file's run time (ms), by tree and file. */
const durations = [];

// Trees by name under dist/tests, or by absolute path.
const trees = (process.argv.length > 2 ? process.argv.slice(2) : ['unit', 'integration', 'e2e'])
  .map((name) => (isAbsolute(name) ? name : join(root, 'dist', 'tests', name)))
  .filter((dir) => existsSync(dir));

/** A tree's test files as uvu names them (paths relative to the tree), in uvu's order. */
function testFiles(dir) {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.test.js')).sort((a, b) => a.localeCompare(b));
}

/** uvu's pattern for exactly `files`. */
function patternOf(files) {
  return `^(?:${files.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}

/**
 * One uvu process over `files` of `dir`. Its summary when it gives one; otherwise the file it was
 * in when it was killed or died, and the tests that had finished by then.
 */
function runUvu(dir, files) {
  return new Promise((resolve) => {
    // Its own process group, so that the nodes a test started go with it when it is killed.
    const child = spawn(process.execPath, [uvu, dir, patternOf(files)], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    const names = new Set(files);
    let out = '';
    let current;
    let since = Date.now();
    let killed = false;
    const watchdog = setInterval(() => {
      if (Date.now() - since <= FILE_LIMIT_MS) return;
      killed = true;
      clearInterval(watchdog);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 1000);
    let partial = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const text = String(chunk).replace(ANSI, '');
      out += text;
      // uvu prints each file's name on a line of its own as the file starts.
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      for (const line of lines) {
        if (names.has(line.trim())) {
          if (current !== undefined) durations.push({ file: join(dir, current), ms: Date.now() - since });
          current = line.trim();
          since = Date.now();
        }
      }
    });
    child.on('close', (code) => {
      clearInterval(watchdog);
      if (current !== undefined) durations.push({ file: join(dir, current), ms: Date.now() - since });
      const total = /Total:\s+(\d+)/.exec(out);
      const passed = /Passed:\s+(\d+)/.exec(out);
      if (!killed && total && passed) {
        const failed = Number(total[1]) - Number(passed[1]);
        resolve({ passed: Number(passed[1]), failed: failed || (code === 0 ? 0 : 1) });
        return;
      }
      // Each finished suite printed `(passed / total)`; the file it stopped in is one failure more.
      let done = 0;
      let failed = 1;
      for (const [, p, t] of out.matchAll(/\((\d+) \/ (\d+)\)\s*$/gm)) {
        done += Number(p);
        failed += Number(t) - Number(p);
      }
      const why = killed ? `ran longer than ${FILE_LIMIT_MS / 60_000} minutes and was killed` : `ended the test process (exit ${code})`;
      console.log(`\n${current ?? dir}: ${why}`);
      resolve({ passed: done, failed, stoppedIn: current ?? files[0] });
    });
  });
}

let passed = 0;
let failed = 0;
for (const dir of trees) {
  let files = testFiles(dir);
  while (files.length > 0) {
    const r = await runUvu(dir, files);
    passed += r.passed;
    failed += r.failed;
    files = r.stoppedIn === undefined ? [] : files.slice(files.indexOf(r.stoppedIn) + 1);
  }
}
const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
if (slowest.length > 0) console.log(`\nThe slowest test files:\n${slowest.map((d) => `  ${(d.ms / 1000).toFixed(1).padStart(6)} s  ${d.file.slice(root.length + 1)}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
