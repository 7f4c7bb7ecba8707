// The client commands as a user runs them against a real node: create accounts with keys,
// deploy a token service from its .wasm, push signed transfers, and every refusal with a clear
// message and exit code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, type CliRun } from '../../lib/cli-process.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { mintAction, tokenBalance, transferAction } from '../../lib/tokens.js';
import { compiledService } from '../../unit/services-wasm/program.js';

interface Ctx { dir: string; node: RunningNode; tokens: string; example: string }
const test = suite<Ctx>('tsibase create / deploy / push / info');

const cli = (ctx: Ctx, args: string[], stdin?: string): Promise<CliRun> => runCli(ctx.node.api, args, stdin);

const file = (ctx: Ctx, name: string, text: string) => {
  const path = join(ctx.dir, name);
  writeFileSync(path, text);
  return path;
};

const transfer = (from: string, to: string, amount: string) => JSON.stringify([transferAction(from, to, amount)]);

const balance = (ctx: Ctx, account: string) => tokenBalance(ctx.node.api, account);

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-cli-'));
  ctx.tokens = join(ctx.dir, 'tokens.wasm');
  writeFileSync(ctx.tokens, (await compiledService('tokens')).binary);
  ctx.example = join(ctx.dir, 'example.wasm');
  writeFileSync(ctx.example, (await compiledService('example')).binary);
  ctx.node = await startBootedNode(ctx.dir);
  for (const who of ['alice', 'bob']) {
    const r = await cli(ctx, ['keys', '--out', join(ctx.dir, `${who}.pem`)]);
    assert.is(r.status, 0, r.stderr);
  }
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('create: accounts with keys; refusals name the problem', async (ctx) => {
  for (const who of ['alice', 'bob']) {
    const r = await cli(ctx, ['create', who, '--key', join(ctx.dir, `${who}.pem`)]);
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, `created ${who} (auth-sig)`);
  }
  const again = await cli(ctx, ['create', 'alice', '--insecure', '-w', 'applied']);
  assert.is(again.status, 1);
  assert.match(again.stderr, 'account already exists');
  const first = await cli(ctx, ['create', 'dora', '--insecure', '-w', 'applied']);
  assert.is(first.status, 0, first.stderr);
  const twice = await cli(ctx, ['create', 'dora', '--insecure', '-w', 'applied']);
  assert.is(twice.status, 1, 'an account that already uses auth-any is not created again');
  assert.match(twice.stderr, 'account dora already exists');
  const badName = await cli(ctx, ['create', 'no way', '--insecure']);
  assert.is(badName.status, 2);
  assert.match(badName.stderr, "'no way' is not a valid account name");
  const both = await cli(ctx, ['create', 'carol']);
  assert.is(both.status, 2);
  assert.match(both.stderr, 'give exactly one of --key and --insecure');
  const missingKey = await cli(ctx, ['create', 'carol', '--key', join(ctx.dir, 'missing.pem'), '-w', 'applied']);
  assert.is(missingKey.status, 1);
  assert.match(missingKey.stderr, 'missing.pem');
});

test('deploy: a token service from its .wasm, registered for HTTP and initialized', async (ctx) => {
  const r = await cli(ctx, ['deploy', 'tokens', ctx.tokens, '--create-insecure-account', '--register-server', '--init']);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'as tokens');
  const notWasm = await cli(ctx, ['deploy', 'other', file(ctx, 'not.wasm', 'hello'), '-i', '-w', 'applied']);
  assert.is(notWasm.status, 1);
  assert.match(notWasm.stderr, 'is not a module the node accepts');
  // With the default wait (final) a failed transaction is reported at its expiration. Expirations
  // are whole seconds, so one second ahead may already be past when the node sees it: use three.
  const twice = await cli(ctx, ['deploy', 'tokens', ctx.tokens, '--init', '--expire-after', '3']);
  assert.is(twice.status, 1);
  assert.match(twice.stderr, 'the token is already initialized');
});

test('deploy refusals name the account and the method: a missing account suggests -i, --init without an init action', async (ctx) => {
  const missing = await cli(ctx, ['deploy', 'notyet', ctx.example, '-w', 'applied']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, 'account notyet does not exist');
  assert.match(missing.stderr, 'create it in the same transaction: -i (--create-insecure-account, development chains) or -k <key>');
  const noInit = await cli(ctx, ['deploy', 'exampletoo', ctx.example, '-i', '--init', '-w', 'applied']);
  assert.is(noInit.status, 1);
  assert.match(noInit.stderr, 'unknown action init (method 4231973) of service exampletoo');
});

test('a URL the node does not serve its chain at, and a node without a chain: the CLI says what to pass', async (ctx) => {
  const byAddress = await runCli(`http://127.0.0.1:${ctx.node.port}`, ['info']);
  assert.is(byAddress.status, 1);
  assert.match(byAddress.stderr, `serves its chain at http://tsibase.localhost:${ctx.node.port}, not at 127.0.0.1:${ctx.node.port}: pass -a http://tsibase.localhost:${ctx.node.port}`);
  assert.not.match(byAddress.stderr, '<html>');
  const bare = await startNode(join(ctx.dir, 'bare'));
  try {
    const pushed = await runCli(bare.api, ['push', '-'], JSON.stringify({ sender: 'alice', service: 'tokens', method: 'mint', data: {} }));
    assert.is(pushed.status, 1);
    assert.match(pushed.stderr, `the node at ${bare.api} has no chain yet: boot one with 'tsibase boot -a ${bare.api}'`);
    assert.not.match(pushed.stderr, '<html>');
    // info asks the admin API first, which this machine may use: no chain, and what to do.
    const info = await runCli(bare.api, ['info']);
    assert.is(info.status, 0, info.stderr);
    assert.match(info.stdout, 'chain:       none yet (boot one with tsibase boot, or link it to a network with --join <url>)');
  } finally {
    await bare.stop();
  }
});

test('push: mint packed by the service, a signed transfer; the balance moves', async (ctx) => {
  const mint = await cli(ctx, ['push', '-', '--wait', 'applied'], JSON.stringify(mintAction('alice', '1000')));
  assert.is(mint.status, 0, mint.stderr);
  const sent = await cli(ctx, ['push', file(ctx, 't1.json', transfer('alice', 'bob', '250')), '--sign', join(ctx.dir, 'alice.pem')]);
  assert.is(sent.status, 0, sent.stderr);
  assert.match(sent.stdout, /transaction [0-9A-F]{64} is in a final block/);
  assert.is(await balance(ctx, 'bob'), '250');
  assert.is(await balance(ctx, 'alice'), '750');
});

test('push refusals: unsigned, signed with the wrong key, bad JSON, unknown action, failing action', async (ctx) => {
  const t = file(ctx, 't2.json', transfer('alice', 'bob', '1'));
  const unsigned = await cli(ctx, ['push', t, '-w', 'applied']);
  assert.is(unsigned.status, 1);
  assert.match(unsigned.stderr, 'does not include a claim for the key needed to authenticate sender alice');
  const wrongKey = await cli(ctx, ['push', t, '--sign', join(ctx.dir, 'bob.pem'), '-w', 'applied']);
  assert.is(wrongKey.status, 1);
  assert.match(wrongKey.stderr, 'claim for the key');
  const notJson = await cli(ctx, ['push', file(ctx, 'bad.json', '{ nope')]);
  assert.is(notJson.status, 1);
  assert.match(notJson.stderr, 'bad.json is not JSON');
  const unknown = await cli(ctx, ['push', '-'], JSON.stringify({ sender: 'alice', service: 'tokens', method: 'burn', data: {} }));
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, 'tokens cannot pack burn');
  const tooMuch = await cli(ctx, ['push', file(ctx, 't3.json', transfer('bob', 'alice', '999999')), '--sign', join(ctx.dir, 'bob.pem'), '-w', 'applied']);
  assert.is(tooMuch.status, 1);
  assert.match(tooMuch.stderr, "service 'tokens' aborted with message: insufficient balance");
  const badWait = await cli(ctx, ['push', t, '--wait', 'soon']);
  assert.is(badWait.status, 2);
  assert.match(badWait.stderr, "--wait must be applied or final, not 'soon'");
  assert.is(await balance(ctx, 'bob'), '250', 'no refused transfer moved anything');
});

test('info: root domain, chain id and head block of the node', async (ctx) => {
  const r = await cli(ctx, ['info']);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'root domain: tsibase.localhost');
  assert.match(r.stdout, /chain id:\s+[0-9A-F]{64}/);
  const head = /head block:\s+(\d+) at (\S+) by prod, \d+ transaction\(s\)\n\s+id ([0-9A-F]{64})/.exec(r.stdout);
  assert.ok(head, r.stdout);
  assert.is(parseInt(head![3]!.slice(0, 8), 16), Number(head![1]), 'a block id starts with its number');
  assert.match(r.stdout, /TaPoS:\s+refBlockIndex \d+, refBlockSuffix \d+/);
});

test.run();
