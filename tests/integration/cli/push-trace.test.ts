// `tsibase push --trace <format>` and `--console` against a real node, with a service whose
// action writes to the console and calls an action that fails (tests/integration/cli/trace-shop.as.ts);
// the node's log lines for the failed transaction; and a trap in the service's code, named by its
// source file, line and function.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, compileSchema } from '../../../host-api/index.js';
import type { TransactionTraceJson } from '../../../host-api/traces/trace-json.js';
import { defaultConfig } from '../../../runtime/config/server-config.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { runCli, type CliRun } from '../../lib/cli-process.js';
import { waitForOutput } from '../../lib/node-network.js';
import { configuredNodeDir, type RunningNode } from '../../lib/node-process.js';
import { compiledEntry, ROOT } from '../../unit/services-wasm/program.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('tsibase push --trace and --console');

const SHOP_SOURCE = 'tests/integration/cli/trace-shop.as.ts';
const Buy = compileSchema({}).typeOf({ Object: { count: 'u32' } });
const Share = compileSchema({}).typeOf({ Object: { total: 'i32', people: 'i32' } });

const action = (method: string, rawData: Uint8Array) => JSON.stringify({ sender: 'shop', service: 'shop', method, rawData: bytesToHex(rawData) });
const buy = (count: number) => action('buy', Buy.pack({ count }));

const push = (ctx: Ctx, stdin: string, ...options: string[]): Promise<CliRun> => runCli(ctx.node.api, ['push', '-', '-w', 'applied', ...options], stdin);

/** The line of `text` in the service's source, 1-based. */
function sourceLine(text: string): number {
  return readFileSync(join(ROOT, SHOP_SOURCE), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-push-trace-'));
  // The transaction records at every level, the others from info (the default).
  const config = defaultConfig();
  configuredNodeDir(ctx.dir, 'node', { ...config, loggers: { console: { ...(config.loggers.console as object), filter: 'Severity >= info or Channel = transaction' } } });
  ctx.node = await startBootedNode(ctx.dir);
  const wasm = join(ctx.dir, 'shop.wasm');
  writeFileSync(wasm, (await compiledEntry(SHOP_SOURCE)).binary);
  const deployed = await runCli(ctx.node.api, ['deploy', 'shop', wasm, '--create-insecure-account', '-w', 'applied']);
  assert.is(deployed.status, 0, deployed.stderr);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('stack (the default): the actions down to the one that failed, then the message', async (ctx) => {
  const r = await push(ctx, buy(3));
  assert.is(r.status, 1);
  assert.match(r.stderr, /transaction [0-9A-F]{64} failed:\nshop → shop::buy\n {2}shop → shop::debit {2}\(failed here\)\nservice 'shop' aborted with message: insufficient balance\n$/);
  assert.is(r.stdout, '');
});

test('error: the message alone', async (ctx) => {
  const r = await push(ctx, buy(3), '--trace', 'error');
  assert.is(r.status, 1);
  assert.match(r.stderr, /failed:\nservice 'shop' aborted with message: insufficient balance\n$/);
  assert.not.match(r.stderr, '→');
});

test('full: the tree with console output and the failing action, on failure and on success', async (ctx) => {
  const failed = await push(ctx, buy(3), '--trace', 'full');
  assert.is(failed.status, 1);
  const tree = failed.stdout.slice(failed.stdout.indexOf('shop → shop::buy'));
  assert.is(tree, [
    'shop → shop::buy',
    '  console: buying 3 apples',
    '  shop → shop::debit  (failed here)',
    '    console: debit 15',
    "    error: service 'shop' aborted with message: insufficient balance",
    "error: service 'shop' aborted with message: insufficient balance",
    '',
  ].join('\n'));
  // Method names come back as their numbers' canonical (lower case) names.
  assert.match(failed.stdout, /^transact → accounts::getauthof\n {2}retval: [0-9A-F]{16}\ntransact → auth-any::checkauthsys\nshop → shop::buy\n/, 'the auth checks ran first, at the top level');
  const ok = await push(ctx, buy(2), '--trace', 'full');
  assert.is(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, 'shop → shop::buy\n  console: buying 2 apples\n  shop → shop::debit\n    console: debit 10\n');
  assert.match(ok.stdout, /\ntransaction [0-9A-F]{64} applied\n$/);
});

test('json: the trace as the node answers it', async (ctx) => {
  const r = await push(ctx, buy(3), '--trace', 'json');
  assert.is(r.status, 1);
  const trace = JSON.parse(r.stdout) as TransactionTraceJson;
  assert.is(trace.error, "service 'shop' aborted with message: insufficient balance");
  assert.is(trace.actionTraces[0]!.action.method, '', 'the transaction entry is a pseudo-action with method 0');
  assert.match(r.stderr, "failed:\nservice 'shop' aborted with message: insufficient balance");
});

test('--console: only what the actions wrote', async (ctx) => {
  const r = await push(ctx, buy(1), '--console');
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, 'buying 1 apples\ndebit 5');
  const failed = await push(ctx, buy(4), '--console');
  assert.is(failed.status, 1);
  assert.is(failed.stdout, 'buying 4 apples\ndebit 20');
});

test('a format that is none of them is a usage error', async (ctx) => {
  const r = await push(ctx, buy(1), '--trace', 'tree');
  assert.is(r.status, 2);
  assert.match(r.stderr, "--trace must be one of error, stack, full, json, not 'tree'");
});

test('the node logs a failed transaction: the error and the failing action at info, the stack at debug', async (ctx) => {
  await push(ctx, buy(5));
  const output = await waitForOutput(ctx.node, /\[info\]: transaction failed: service 'shop' aborted with message: insufficient balance \(in shop → shop::debit\)/);
  assert.match(output, /\[debug\]: transaction failed in:\nshop → shop::buy\n {2}shop → shop::debit {2}\(failed here\)\nservice 'shop' aborted/);
});

test('a trap in the service names its source file, line and function', async (ctx) => {
  const r = await push(ctx, action('share', Share.pack({ total: 10, people: 0 })));
  assert.is(r.status, 1);
  const line = sourceLine('return total / people;');
  assert.match(r.stderr, `service 'shop' trapped: divide by zero at ${SHOP_SOURCE}:${line} in Shop#share\n`);
  const ok = await push(ctx, action('share', Share.pack({ total: 10, people: 2 })), '--trace', 'json');
  assert.is(ok.status, 0, ok.stderr);
});

test.run();
