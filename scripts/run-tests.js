#!/usr/bin/env node
// Runs every uvu test tree (unit, integration, e2e) and prints one closing line `N passed, N
// failed` over all of them. The trees are cut into parts (an integration or e2e file each, a
// folder of unit files), and LANES uvu processes at a time take the next part, at most one of
// them an integration file (each runs several node processes whose consensus timing a second
// such file would starve), so that the unit and e2e trees can run beside the integration tree.
// Each part's output is printed whole when it ends. A test file that runs longer than FILE_LIMIT_MS is taken as hung: its process is killed
// with every process it started (the nodes of a test) and the file counts as one failure; so
// does a file during which the process dies. Either way the part goes on with the files after
// it, so one file can neither hold up nor hide the rest, and a crash can never look like a pass.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';
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
/** Where each run leaves its files' times for the next run's order. */
const DURATIONS_FILE = join(root, 'dist', '.test-durations.json');
/**
 * uvu processes at once: TSIBASE_TEST_LANES, else one. Two (the unit and e2e trees beside the
 * integration file) take about a third off on two cores, but under their load a fresh node
 * refused a valid BFT snapshot in bft-switch-snapshot.test ("eprod is not an active producer"),
 * twice in two runs: until that is understood, one lane is the default.
 */
const LANES = Math.min(Number(process.env.TSIBASE_TEST_LANES) || 1, availableParallelism());

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
function runUvu(dir, files, print) {
  return new Promise((resolve) => {
    // Its own process group, so that the nodes a test started go with it when it is killed.
    const child = spawn(process.execPath, [uvu, dir, patternOf(files)], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    child.stderr.on('data', print);
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
      print(chunk);
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
      print(`\n${current ?? dir}: ${why}\n`);
      resolve({ passed: done, failed, stoppedIn: current ?? files[0] });
    });
  });
}

/**
 * A tree's parts: each file of the integration and e2e trees (their files are long, and most of
 * their time is waiting), each folder of the unit tree (many short files in one process).
 */
function partsOf(dir) {
  const files = testFiles(dir);
  if (!dir.endsWith(`${sep}unit`)) return files.map((file) => ({ dir, files: [file] }));
  const byFolder = new Map();
  for (const file of files) {
    const folder = dirname(file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  return [...byFolder.values()].map((group) => ({ dir, files: group }));
}

/** Runs one part to its end (past a file that hung or died), then prints its output. */
async function runPart({ dir, files }) {
  const output = [];
  const print = (chunk) => output.push(String(chunk));
  let passed = 0;
  let failed = 0;
  let left = files;
  while (left.length > 0) {
    const r = await runUvu(dir, left, print);
    passed += r.passed;
    failed += r.failed;
    left = r.stoppedIn === undefined ? [] : left.slice(left.indexOf(r.stoppedIn) + 1);
  }
  process.stdout.write(output.join(''));
  return { passed, failed };
}

/**
 * The parts, longest first by the last run's times (kept in dist/, so a fresh clone has none and
 * a new file counts as long), so that no long file starts last; with no record, the integration
 * and e2e files go before the unit folders.
 */
function ordered(parts) {
  const expected = (part) => part.files.reduce((sum, f) => sum + (last[join(part.dir, f)] ?? 60_000), 0);
  const unitLast = (part) => (part.dir.endsWith(`${sep}unit`) ? 1 : 0);
  return parts.sort((a, b) => (Object.keys(last).length > 0 ? expected(b) - expected(a) : unitLast(a) - unitLast(b)));
}

/** The times recorded so far, by file path under the checkout. */
function recorded() {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

/** Integration files run real node processes, several each: one at a time, beside the other trees. */
const startsNodes = (part) => part.dir.endsWith(`${sep}integration`);

const last = recorded();
const queue = ordered(trees.flatMap(partsOf));
let passed = 0;
let failed = 0;
/** Settles when the integration file running now ends; undefined while none runs. */
let nodesRunning;
await Promise.all(Array.from({ length: LANES }, async () => {
  for (;;) {
    const index = queue.findIndex((part) => !(nodesRunning && startsNodes(part)));
    if (index < 0 && queue.length === 0) return;
    if (index < 0) {
      await nodesRunning;
      continue;
    }
    const [part] = queue.splice(index, 1);
    const run = runPart(part);
    if (startsNodes(part)) nodesRunning = run.then(() => (nodesRunning = undefined));
    const r = await run;
    passed += r.passed;
    failed += r.failed;
  }
}));
// Files outside the checkout (the runner's own test makes some) are not recorded.
const ours = durations.filter((d) => d.file.startsWith(root + sep));
if (ours.length > 0) writeFileSync(DURATIONS_FILE, JSON.stringify({ ...last, ...Object.fromEntries(ours.map((d) => [d.file, d.ms])) }));
const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
if (slowest.length > 0) console.log(`\nThe slowest test files:\n${slowest.map((d) => `  ${(d.ms / 1000).toFixed(1).padStart(6)} s  ${d.file.slice(root.length + 1)}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
