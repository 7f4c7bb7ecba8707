// Helper threads below the chain thread: in a fresh process (so this runner's threads keep their
// priority), every thread but the main one ends at niceness 10 and the main one stays at 0,
// libuv's threadpool included (started by the call itself).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const MODULE = join(process.cwd(), 'dist', 'runtime', 'node', 'helper-thread-priority.js');

/** Niceness by thread id, read from /proc/self/task/<tid>/stat (field 19) after the call. */
const PROBE = `
import { readdirSync, readFileSync } from 'node:fs';
const before = readdirSync('/proc/self/task').length;
const { lowerHelperThreadPriority } = await import(${JSON.stringify(MODULE)});
await lowerHelperThreadPriority();
const nice = {};
for (const tid of readdirSync('/proc/self/task')) {
  const stat = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
  nice[tid] = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
console.log(JSON.stringify({ pid: process.pid, before, nice }));
`;

test('every thread but the main one is lowered to niceness 10, the threadpool included', () => {
  if (process.platform !== 'linux') return;
  const { pid, before, nice } = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], { encoding: 'utf8' })) as {
    pid: number; before: number; nice: Record<string, number>;
  };
  assert.is(nice[pid], 0, 'the main thread keeps its priority');
  const helpers = Object.entries(nice).filter(([tid]) => Number(tid) !== pid);
  // libuv's threadpool (4 threads by default) starts during the call, on top of V8's threads.
  assert.ok(helpers.length >= before - 1 + 4, `threads: ${before} before, ${helpers.length + 1} after`);
  for (const [tid, value] of helpers) assert.is(value, 10, `thread ${tid}`);
});

test.run();
