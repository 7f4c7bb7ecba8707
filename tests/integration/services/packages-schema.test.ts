// Issue 27 item 4 against a real node: `GET packages.<root>/schema?service=<name>` answers a
// service's schema as psibase's packages service does (psibase HEAD's JSON form, issue 39); the
// boot stores every bundled service's schema and `tsibase deploy` the one beside the .wasm (or
// embedded in it); a schema that names undefined types is refused and stores nothing. Schemas
// write AccountNumber as psibase does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalServiceSchema, setSchemaAction, systemAction } from '../../../host-api/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { runCli } from '../../lib/cli-process.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { compiledService } from '../../unit/services-wasm/program.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient }
const test = suite<Ctx>('packages: service schemas on chain');

const schemaReply = (ctx: Ctx, query: string) => httpRequest(serviceUrl(ctx.node.api, 'packages', `/schema${query}`));

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-packages-'));
  ctx.node = await startBootedNode(ctx.dir);
  ctx.client = new ChainClient(ctx.node.api);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the boot stores the schema of every bundled service; it is served as JSON with CORS', async (ctx) => {
  for (const service of ['accounts', 'transact', 'sites', 'packages']) {
    const r = await schemaReply(ctx, `?service=${service}`);
    assert.is(r.status, 200, service);
    assert.is(r.contentType, 'application/json', service);
    assert.is(r.headers['access-control-allow-origin'], '*', service);
    assert.equal(r.json(), canonicalServiceSchema((await compiledService(service)).schema as Record<string, unknown>), service);
  }
});

test('AccountNumber is written as psibase writes it: a Custom over the struct {value: u64}', async (ctx) => {
  const schema = (await schemaReply(ctx, '?service=accounts')).json() as { types: Record<string, unknown> };
  assert.equal(schema.types.AccountNumber, { Custom: { type: { Struct: { value: 'u64' } }, id: 'AccountNumber' } });
  assert.equal(schema.types.u64, { Int: { bits: 64, isSigned: false } });
});

test('a service without a schema is a 404 naming it, as psibase answers', async (ctx) => {
  for (const [query, name] of [['?service=nobody', 'nobody'], ['', ''], ['?service=Not%20a%20name', 'Not a name']] as const) {
    const r = await schemaReply(ctx, query);
    assert.is(r.status, 404, query);
    assert.is(r.contentType, 'text/html', query);
    assert.is(r.text(), `No schema for service '${name}'`, query);
  }
});

test('tsibase deploy stores the schema beside the .wasm, else the embedded one, unless --no-schema', async (ctx) => {
  const tokens = await compiledService('tokens');
  const wasm = join(ctx.dir, 'tokens.wasm');
  writeFileSync(wasm, tokens.binary);
  const embedded = join(ctx.dir, 'embedded.wasm');
  writeFileSync(embedded, tokens.binary);
  const schema = tokens.schema as { types: Record<string, unknown> };
  const beside = { ...schema, types: { ...schema.types, BesideTheModule: 'u8' } };
  writeFileSync(join(ctx.dir, 'tokens.schema.json'), JSON.stringify(beside));

  for (const [account, file, extra] of [['tokens', wasm, []], ['tokens2', embedded, []], ['tokens3', embedded, ['--no-schema']]] as const) {
    const r = await runCli(ctx.node.api, ['deploy', account, file, '-i', '-w', 'applied', ...extra]);
    assert.is(r.status, 0, r.stderr);
  }
  assert.equal((await schemaReply(ctx, '?service=tokens')).json(), canonicalServiceSchema(beside));
  assert.equal((await schemaReply(ctx, '?service=tokens2')).json(), canonicalServiceSchema(schema));
  assert.is((await schemaReply(ctx, '?service=tokens3')).status, 404);
});

test('setSchema refuses a schema that names an undefined type, and stores nothing; what is no schema is refused before it is sent', async (ctx) => {
  await ctx.client.push([systemAction('root', 'accounts.newAccount', { name: 'carol', authService: 'auth-any', requireMatch: true })], { waitFor: 'applied' });
  assert.throws(() => setSchemaAction('carol', '{"service":"carol"'), /the service schema is not JSON/);
  assert.throws(() => setSchemaAction('carol', '[]'), /the service schema is not a JSON object/);
  const cases: [string, string][] = [
    ['{"service":"carol","types":{},"actions":{"act":{"params":{"Object":{"who":"Nope"}}}}}', 'schema.actions.act.params: type Nope is not defined'],
    ['{"service":"carol","types":{"T":{"List":"Missing"}},"actions":{}}', 'schema.types.T: type Missing is not defined'],
  ];
  for (const [schema, message] of cases) {
    const error = await rejectionMessage(ctx.client.push([setSchemaAction('carol', schema)], { waitFor: 'applied' }), schema);
    assert.ok(error.includes(message), error);
  }
  assert.is((await schemaReply(ctx, '?service=carol')).status, 404);
  const good = '{"service":"carol","types":{"T":{"List":"AccountNumber"}},"actions":{"act":{"params":{"Object":{"who":"T"}}}},"history":{},"merkle":{}}';
  await ctx.client.push([setSchemaAction('carol', good)], { waitFor: 'applied' });
  assert.equal((await schemaReply(ctx, '?service=carol')).json(), canonicalServiceSchema(JSON.parse(good)));
});

test.run();
