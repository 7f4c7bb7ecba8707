// The tokens service's generated GraphQL query root (TokensQuery) through its serveSys, as the
// http service calls it: the SDL it serves builds with graphql-js; balances paged by owner (account
// names as bounds, cursors the hex of account numbers), balance(owner) and supply agree with
// graphql-js executing a reference resolver over the balances the test made; /balance and the
// simple UI still answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { accountNumberFromName } from '../../../host-api/index.js';
import { Random } from '../../lib/random.js';
import { openTokensChain, type TokensChain } from './tokens-chain.js';
import { accountBound, compareBigints, referenceConnection, type ConnectionArgs } from './connection-reference.js';

let opened: TokensChain;
let schema: GraphQLSchema;
const ACCOUNTS = ['alice', 'bob', 'carol', 'dave', 'eve', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar'];
const balances = new Map<string, bigint>();
let supply = 0n;
const rnd = new Random(0x70c);

const serve = (method: string, target: string, contentType = '', body = '') => opened.serve(method, target, contentType, body);

function ours(query: string): unknown {
  const reply = serve('POST', '/graphql', 'application/json', JSON.stringify({ query }));
  assert.is(reply.status, 200);
  return JSON.parse(new TextDecoder().decode(reply.body));
}

const numberOf = (name: string) => accountNumberFromName(name);
const cursorOf = (name: string) => numberOf(name).toString(16).padStart(16, '0').toUpperCase();

function referenceRoot(amounts: Map<string, bigint>) {
  const rows = [...amounts].filter(([, amount]) => amount > 0n).map(([owner, amount]) => ({ owner, amount: String(amount) }))
    .sort((a, b) => compareBigints(numberOf(a.owner), numberOf(b.owner)));
  const index = {
    rows,
    cursorOf: (r: { owner: string }) => cursorOf(r.owner),
    keyOf: (r: { owner: string }) => numberOf(r.owner),
    parse: accountBound,
    compare: compareBigints,
  };
  return {
    balances: (args: ConnectionArgs) => referenceConnection(index, (r) => r, args),
    balance: ({ owner }: { owner: string }) => {
      const key = accountBound(owner, 'owner');
      return rows.find((r) => numberOf(r.owner) === key) ?? null;
    },
    supply: () => ({ id: 0, total: String(supply) }),
  };
}

async function agree(query: string, amounts = balances): Promise<unknown> {
  const mine = ours(query);
  const theirs = JSON.parse(JSON.stringify(await graphql({ schema, source: query, rootValue: referenceRoot(amounts) })));
  assert.equal(mine, theirs, query);
  return mine;
}

test.before(async () => {
  opened = await openTokensChain(ACCOUNTS);
  const { chain, tokens } = opened;
  for (const [i, to] of ACCOUNTS.slice(0, 9).entries()) {
    const amount = i === 0 ? (1n << 64n) - 1_000_000n : BigInt(1 + rnd.int(1000));
    tokens.call(chain, 'tokens', 'mint', { to, amount: String(amount) });
    balances.set(to, amount);
    supply += amount;
  }
  // bob gives everything away: no row left for him.
  tokens.call(chain, 'bob', 'transfer', { to: 'oscar', amount: String(balances.get('bob')), memo: 'all' });
  balances.set('oscar', balances.get('bob')!);
  balances.set('bob', 0n);
  const sdl = serve('GET', '/graphql');
  assert.is(sdl.status, 200);
  schema = buildSchema(new TextDecoder().decode(sdl.body));
});

test.after(async () => {
  await opened?.chain.close();
});

test('the served SDL has the generated root next to the event queries', () => {
  const query = schema.getQueryType()!.getFields();
  assert.is(String(query.balances!.type), 'BalanceConnection!');
  assert.equal(query.balances!.args.map((a) => `${a.name}: ${String(a.type)}`), [
    'gt: String', 'ge: String', 'lt: String', 'le: String', 'first: Float', 'last: Float', 'before: String', 'after: String',
  ]);
  assert.is(String(query.balance!.type), 'Balance');
  assert.is(String(query.supply!.type), 'Supply');
  assert.ok(query.transfers, 'the event queries stay in the same Query');
});

test('balances, balance(owner) and supply agree with graphql-js', async () => {
  await agree('{ balances { edges { node { owner amount } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }');
  await agree('{ alice: balance(owner: "alice") { owner amount } bob: balance(owner: "bob") { amount } supply { id total } }');
  await agree('{ balance(owner: "NOT valid") { amount } supply { total } }');
  await agree('{ balances(gt: "Not!Valid") { edges { cursor } } }');
  const names = [...ACCOUNTS, 'a', 'zzz'];
  for (let i = 0; i < 120; i++) {
    const args: ConnectionArgs = {};
    for (const bound of ['gt', 'ge', 'lt', 'le'] as const) if (rnd.next() < 0.25) args[bound] = rnd.pick(names);
    if (rnd.next() < 0.5) args.first = rnd.int(5);
    if (rnd.next() < 0.4) args.last = rnd.int(5);
    if (rnd.next() < 0.3) args[rnd.next() < 0.5 ? 'after' : 'before'] = cursorOf(rnd.pick(ACCOUNTS));
    const text = Object.entries(args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
    await agree(`{ balances${text ? `(${text})` : ''} { edges { node { owner amount } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`);
  }
});

test('the comparison fails when a balance differs', async () => {
  const changed = new Map(balances);
  changed.set('carol', balances.get('carol')! + 1n);
  let failed = false;
  try {
    await agree('{ balances { edges { node { amount } } } }', changed);
  } catch {
    failed = true;
  }
  assert.ok(failed);
});

test('/balance and the simple UI still answer', () => {
  const reply = serve('GET', '/balance?account=alice');
  assert.is(reply.status, 200);
  assert.is(JSON.parse(new TextDecoder().decode(reply.body)), String(balances.get('alice')));
  const templates = serve('GET', '/action_templates');
  assert.ok(JSON.parse(new TextDecoder().decode(templates.body)).transfer);
});

test.run();
