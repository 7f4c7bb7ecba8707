// A real GraphQL client against the tokens service of a real node: it introspects /graphql over
// HTTP, builds the client schema with graphql-js, validates its queries against it (and sees a
// bad one refused), then runs them with variables: balances paged through the connection and
// transfer history filtered by account and memo, checked against the mints and transfers the
// test itself pushed through the CLI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildClientSchema, getIntrospectionQuery, parse, validate, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { accountNumberFromName } from '../../../host-api/index.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { runCli } from '../../lib/cli-process.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { mintAction, transferAction } from '../../lib/tokens.js';
import { compiledService } from '../../unit/services-wasm/program.js';

interface Ctx { dir: string; node: RunningNode; introspection: Reply; schema: GraphQLSchema }
const test = suite<Ctx>('a GraphQL client of the tokens service');

const ACCOUNTS = ['alice', 'bob', 'carol', 'dave', 'erin'];
const MINTS: [string, string][] = [['alice', '1000'], ['bob', '700'], ['carol', '50'], ['dave', '5']];
const TRANSFERS: [string, string, string, string][] = [
  ['alice', 'bob', '100', 'rent for june'], ['bob', 'carol', '20', 'lunch'], ['alice', 'carol', '30', 'rent for july'],
  ['carol', 'erin', '15', 'Rent share'], ['dave', 'erin', '5', 'gift'], ['alice', 'dave', '1', 'rent deposit'],
];

/** The balances the mints and transfers leave (accounts with none have no row). */
function expectedBalances(): Map<string, string> {
  const amounts = new Map<string, bigint>();
  for (const [to, amount] of MINTS) amounts.set(to, (amounts.get(to) ?? 0n) + BigInt(amount));
  for (const [from, to, amount] of TRANSFERS) {
    amounts.set(from, amounts.get(from)! - BigInt(amount));
    amounts.set(to, (amounts.get(to) ?? 0n) + BigInt(amount));
  }
  const owners = [...amounts.keys()].filter((a) => amounts.get(a)! > 0n);
  owners.sort((a, b) => (accountNumberFromName(a) < accountNumberFromName(b) ? -1 : 1));
  return new Map(owners.map((a) => [a, String(amounts.get(a))]));
}

type Reply = { data?: Record<string, unknown>; errors?: { message: string }[] };

/** POSTs a GraphQL request to tokens.<root domain> as any GraphQL client does. */
async function post(node: RunningNode, query: string, variables?: Record<string, unknown>): Promise<Reply> {
  const r = await httpRequest(serviceUrl(node.api, 'tokens', '/graphql'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify({ query, variables })),
  });
  assert.is(r.status, 200, r.text());
  return r.json() as Reply;
}

/** Runs a query the client schema validates; its data. */
async function run(ctx: Ctx, query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  assert.equal(validate(ctx.schema, parse(query)).map((e) => e.message), [], query);
  const reply = await post(ctx.node, query, variables);
  assert.is(reply.errors, undefined, JSON.stringify(reply.errors));
  return reply.data!;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-graphql-client-'));
  const wasm = join(ctx.dir, 'tokens.wasm');
  writeFileSync(wasm, (await compiledService('tokens')).binary);
  ctx.node = await startBootedNode(ctx.dir);
  const cli = async (args: string[], stdin?: string) => {
    const r = await runCli(ctx.node.api, [...args, '--wait', 'applied'], stdin);
    assert.is(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  };
  await cli(['deploy', 'tokens', wasm, '--create-insecure-account', '--register-server', '--init']);
  for (const name of ACCOUNTS) await cli(['create', name, '--insecure']);
  await cli(['push', '-'], JSON.stringify(MINTS.map(([to, amount]) => mintAction(to, amount))));
  await cli(['push', '-'], JSON.stringify(TRANSFERS.map(([from, to, amount, memo]) => transferAction(from, to, amount, memo))));
  // The client schema every test validates its queries against.
  ctx.introspection = await post(ctx.node, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }));
  if (ctx.introspection.errors === undefined) ctx.schema = buildClientSchema(ctx.introspection.data as unknown as IntrospectionQuery);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('introspection over HTTP gives a client schema with the token queries', async (ctx) => {
  assert.is(ctx.introspection.errors, undefined);
  const fields = ctx.schema.getQueryType()!.getFields();
  for (const name of ['balances', 'balance', 'supply', 'transfers', 'mints', 'event']) assert.ok(fields[name], name);
  assert.is(String(fields.balances!.type), 'BalanceConnection!');
  // The client now refuses what the service would: validation happens before a request is sent.
  const refused = validate(ctx.schema, parse('{ balances { edges { node { owner wealth } } } }'));
  assert.equal(refused.map((e) => e.message), ['Cannot query field "wealth" on type "Balance".']);
});

test('balances paged through the connection, two at a time, are the ones the test made', async (ctx) => {
  const query = `query Page($first: Float!, $after: String) {
    balances(first: $first, after: $after) { edges { node { owner amount } cursor } pageInfo { hasNextPage endCursor } }
  }`;
  const seen = new Map<string, string>();
  let after: string | null = null;
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 10, 'paging ends');
    const data = await run(ctx, query, { first: 2, after });
    const page = data.balances as { edges: { node: { owner: string; amount: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    assert.ok(page.edges.length <= 2);
    for (const { node } of page.edges) seen.set(node.owner, node.amount);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  assert.equal([...seen], [...expectedBalances()]);
  const one = await run(ctx, 'query One($owner: String!) { balance(owner: $owner) { owner amount } supply { total } }', { owner: 'erin' });
  assert.equal(one.balance, { owner: 'erin', amount: expectedBalances().get('erin') });
  assert.equal(one.supply, { total: String(MINTS.reduce((sum, [, amount]) => sum + BigInt(amount), 0n)) });
});

test('transfer history with a condition: an account and a memo pattern', async (ctx) => {
  const query = `query History($account: String, $memo: String) {
    transfers(account: $account, memo: $memo) { edges { node { from to amount memo } } }
  }`;
  const history = async (variables: Record<string, unknown>) =>
    ((await run(ctx, query, variables)).transfers as { edges: { node: Record<string, string> }[] }).edges.map((e) => e.node);
  const asNodes = (list: typeof TRANSFERS) => list.map(([from, to, amount, memo]) => ({ from, to, amount, memo }));
  const carolsRent = TRANSFERS.filter(([from, to, , memo]) => (from === 'carol' || to === 'carol') && /^rent/i.test(memo));
  assert.ok(carolsRent.length >= 2);
  assert.equal(await history({ account: 'carol', memo: 'rent%' }), asNodes(carolsRent));
  assert.equal(await history({ account: 'erin' }), asNodes(TRANSFERS.filter(([, to]) => to === 'erin')));
  assert.equal(await history({}), asNodes(TRANSFERS));
});

test.run();
