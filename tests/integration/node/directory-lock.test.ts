// One process per node directory (docs/administration.md §8 item 4), with real processes: while
// a node runs on a directory, a second node, create-snapshot, load-snapshot and `dev --reset` on
// it exit at once naming the directory and the process holding it, and change nothing; a node
// killed with -9 leaves its lock file behind, and the next start on the directory runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { headBlockNum, waitForBlocks } from '../../lib/chain-head.js';
import { BIN, nodeProcessId, startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; nodeDir: string; node: RunningNode }
const test = suite<Ctx>('one process per node directory');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-lock-'));
  ctx.nodeDir = join(ctx.dir, 'node');
  ctx.node = await startBootedNode(ctx.dir);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

interface Exit { status: number | null; output: string }


/** Runs `tsibase <args>` to its end (30 s at most: a process that runs on has taken the directory). */
function runToExit(args: string[]): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tsibase ${args[0]} ran on a directory in use:\n${output}`));
    }, 30_000);
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, output });
    });
  });
}

function assertRefused(exit: Exit, ctx: Ctx): void {
  assert.is(exit.status, 1, exit.output);
  assert.match(exit.output, `the node directory ${ctx.nodeDir} is in use by process ${nodeProcessId(ctx.node)}`, exit.output);
  assert.match(exit.output, 'only one tsibase process at a time may run on a node directory', exit.output);
}

test('a second node on the directory exits at once, naming it and the process that holds it; the first produces on', async (ctx) => {
  const client = new ChainClient(ctx.node.api);
  const before = await headBlockNum(client);
  assertRefused(await runToExit(['node', ctx.nodeDir, '-l', '127.0.0.1:0', '-p', 'prod']), ctx);
  await waitForBlocks(client, before, 3);
});

test('create-snapshot, load-snapshot and dev --reset refuse the directory in use and change nothing', async (ctx) => {
  const snapshot = join(ctx.dir, 'snap.bin');
  assertRefused(await runToExit(['create-snapshot', ctx.nodeDir, snapshot]), ctx);
  assert.not.ok(existsSync(snapshot), 'no snapshot file was written');
  writeFileSync(snapshot, 'not read: the directory is refused first');
  assertRefused(await runToExit(['load-snapshot', ctx.nodeDir, snapshot]), ctx);
  assertRefused(await runToExit(['dev', '--data', ctx.nodeDir, '--reset', '-l', '127.0.0.1:0']), ctx);
  assert.ok(existsSync(join(ctx.nodeDir, 'db')), 'dev --reset deleted nothing');
  const client = new ChainClient(ctx.node.api);
  await waitForBlocks(client, await headBlockNum(client), 2);
});

test('a node killed with -9 leaves its lock file, and the next start on the directory runs its chain on', async (ctx) => {
  const client = new ChainClient(ctx.node.api);
  const head = await headBlockNum(client);
  const worker = nodeProcessId(ctx.node);
  const exited = new Promise((resolve) => ctx.node.process.once('exit', resolve));
  process.kill(worker, 'SIGKILL');
  await exited;
  assert.is(readFileSync(join(ctx.nodeDir, 'node.lock'), 'latin1'), `${worker}\n`, 'the lock file names the killed process');
  ctx.node = await startNode(ctx.nodeDir, ['-p', 'prod', '--block-interval', '200']);
  const restarted = new ChainClient(ctx.node.api);
  assert.ok((await waitForBlocks(restarted, head, 2)) > head);
  assert.is(readFileSync(join(ctx.nodeDir, 'node.lock'), 'latin1'), `${nodeProcessId(ctx.node)}\n`);
});

test.run();
