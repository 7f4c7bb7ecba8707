// `tsibase codegen` as a service author runs it: the client of the example service's schema
// written beside it or where -o says, compiled with tsc --strict, pushing its actions signed to a
// real node through `tsibase/client` and decoding their return values; bad input refused clearly.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, type CliRun } from '../../lib/cli-process.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { clientProject, type ClientProject } from '../../lib/typed-client.js';
import { compiledService } from '../../unit/services-wasm/program.js';

const PUSH_USAGE = `
import { connect, readPrivateKey } from 'tsibase/client';
import { actions, results } from './example-client.js';

/** Two increments in one transaction, signed with alice's key: what each returned. */
export async function pushIncrements(url: string, keyFile: string): Promise<[bigint, bigint]> {
  const node = connect(url, { keys: [readPrivateKey(keyFile)] });
  const alice = actions('alice');
  const pushed = await node.push([alice.increment('pushed', 4n), alice.increment('pushed', 3n)], { waitFor: 'applied' });
  return [results.increment(pushed.retvals[0]!), results.increment(pushed.retvals[1]!)];
}
`;

interface Ctx { dir: string; node: RunningNode; schema: string; project: ClientProject }
const test = suite<Ctx>('tsibase codegen');

const cli = (ctx: Ctx, args: string[]): Promise<CliRun> => runCli(ctx.node.api, args);

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-codegen-'));
  ctx.schema = join(ctx.dir, 'build', 'example.schema.json');
  const example = await compiledService('example');
  mkdirSync(join(ctx.dir, 'build'));
  writeFileSync(ctx.schema, JSON.stringify(example.schema, null, 2));
  ctx.project = clientProject();
  ctx.node = await startBootedNode(ctx.dir);
});

test.after(async (ctx) => {
  await ctx.node.stop();
  ctx.project.remove();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('writes the client beside the schema, or where -o says, and says what it holds', async (ctx) => {
  const beside = await cli(ctx, ['codegen', ctx.schema]);
  assert.is(beside.status, 0, beside.stderr);
  const besideFile = join(ctx.dir, 'build', 'example-client.ts');
  assert.match(beside.stdout, `${besideFile}  the client of example: 5 actions, 2 events`);
  const out = join(ctx.project.dir, 'example-client.ts');
  const given = await cli(ctx, ['codegen', ctx.schema, '-o', out]);
  assert.is(given.status, 0, given.stderr);
  assert.is(readFileSync(out, 'utf8'), readFileSync(besideFile, 'utf8'));
  assert.match(readFileSync(out, 'utf8'), `from ${ctx.schema}.`);
});

test('the client pushes its actions signed to a node and decodes what they returned', async (ctx) => {
  for (const args of [['keys', '--out', join(ctx.dir, 'alice.pem')], ['create', 'alice', '--key', join(ctx.dir, 'alice.pem'), '-w', 'applied']]) {
    const r = await cli(ctx, args);
    assert.is(r.status, 0, r.stderr);
  }
  ctx.project.write('push-usage', PUSH_USAGE);
  const compiled = await ctx.project.compile();
  assert.is(compiled.status, 0, compiled.output);
  const usage = await ctx.project.load<{ pushIncrements(url: string, keyFile: string): Promise<[bigint, bigint]> }>('push-usage');
  assert.equal(await usage.pushIncrements(ctx.node.api, join(ctx.dir, 'alice.pem')), [4n, 7n]);
});

test('--help, and bad input: a missing or unreadable schema, a bad one, an output that is not .ts', async (ctx) => {
  const help = await cli(ctx, ['codegen', '--help']);
  assert.is(help.status, 0);
  assert.match(help.stdout, 'usage: tsibase codegen <schema.json>');
  const missing = await cli(ctx, ['codegen', join(ctx.dir, 'none.schema.json')]);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, `tsibase codegen: ${join(ctx.dir, 'none.schema.json')} does not exist: build the service first`);
  const notJson = join(ctx.dir, 'not.json');
  writeFileSync(notJson, '{ "service": ');
  const bad = await cli(ctx, ['codegen', notJson]);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, `tsibase codegen: ${notJson} is not JSON: `);
  const wrong = join(ctx.dir, 'wrong.json');
  writeFileSync(wrong, JSON.stringify({ service: 'x', types: {}, actions: { go: { params: { Object: { a: 'Missing' } } } } }));
  const refused = await cli(ctx, ['codegen', wrong]);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, `${wrong}: actions.go.params: `);
  assert.match(refused.stderr, "unknown type 'Missing'");
  assert.not.ok(existsSync(join(ctx.dir, 'x-client.ts')), 'nothing is written for a bad schema');
  const notTs = await cli(ctx, ['codegen', ctx.schema, '-o', join(ctx.dir, 'client.js')]);
  assert.is(notTs.status, 2);
  assert.match(notTs.stderr, 'give -o a file ending in .ts');
  const none = await cli(ctx, ['codegen']);
  assert.is(none.status, 2);
  assert.match(none.stderr, 'missing <schema.json>');
});

test.run();
