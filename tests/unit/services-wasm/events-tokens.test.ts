// The tokens service's events over its /graphql (served through serveSys as the http service
// calls it): mints and transfers paged through the events service and filtered by account and
// memo pattern, checked against the transfers the test made; one event decoded by id; an
// injection attempt in the memo pattern matches nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTokensChain, type TokensChain } from './tokens-chain.js';

let opened: TokensChain;
interface Transfer { from: string; to: string; amount: string; memo: string }
const transfers: Transfer[] = [];
const mints: { to: string; amount: string }[] = [];

/** POSTs a GraphQL query to tokens' serveSys; the parsed response. */
function graphql(query: string): { data?: Record<string, unknown>; errors?: { message: string }[] } {
  const reply = opened.serve('POST', '/graphql', 'application/graphql', query);
  assert.is(reply.status, 200);
  return JSON.parse(new TextDecoder().decode(reply.body));
}

test.before(async () => {
  opened = await openTokensChain(['alice', 'bob', 'carol']);
  const { chain, tokens } = opened;
  for (const [to, amount] of [['alice', '1000'], ['bob', '50']] as const) {
    tokens.call(chain, 'tokens', 'mint', { to, amount });
    mints.push({ to, amount });
  }
  const memos = ['rent for june', 'lunch', 'RENT', 'rent refund', '', "x' OR '1'='1"];
  for (let i = 0; i < 12; i++) {
    const [from, to] = i % 3 === 2 ? ['bob', 'carol'] : ['alice', i % 2 ? 'carol' : 'bob'];
    const t = { from, to, amount: String(i + 1), memo: memos[i % memos.length]! };
    tokens.call(chain, from, 'transfer', { to: t.to, amount: t.amount, memo: t.memo });
    transfers.push(t);
  }
});

test.after(async () => {
  await opened?.chain.close();
});

const PAGE = 'edges { node { from to amount memo } cursor } pageInfo { hasNextPage hasPreviousPage }';

test('transfers of an account with a memo pattern, page by page', () => {
  const expected = transfers.filter((t) => (t.from === 'carol' || t.to === 'carol') && /^rent/i.test(t.memo));
  assert.ok(expected.length > 2);
  const seen: Transfer[] = [];
  let after = '';
  for (;;) {
    const r = graphql(`{ transfers(account: "carol", memo: "rent%", first: 2${after ? `, after: "${after}"` : ''}) { ${PAGE} } }`);
    const page = r.data!.transfers as { edges: { node: Transfer; cursor: string }[]; pageInfo: { hasNextPage: boolean } };
    seen.push(...page.edges.map((e) => e.node));
    if (!page.pageInfo.hasNextPage) break;
    after = page.edges.at(-1)!.cursor;
  }
  assert.equal(seen, expected);
});

test('the last transfers, mints, and the injection attempt as a memo pattern', () => {
  const last = graphql(`{ transfers(last: 3) { ${PAGE} } }`).data!.transfers as { edges: { node: Transfer }[]; pageInfo: { hasPreviousPage: boolean } };
  assert.equal(last.edges.map((e) => e.node), transfers.slice(-3));
  assert.is(last.pageInfo.hasPreviousPage, true);
  const minted = graphql('{ mints { edges { node { to amount } } } }').data!.mints as { edges: { node: unknown }[] };
  assert.equal(minted.edges.map((e) => e.node), mints);
  // The pattern is a value: `%` then the literal text, so only memos ending in it match.
  const injected = graphql(`{ transfers(memo: "%' OR '1'='1") { edges { node { from to amount memo } } } }`).data!.transfers as { edges: { node: Transfer }[] };
  assert.equal(injected.edges.map((e) => e.node), transfers.filter((t) => t.memo.endsWith("' OR '1'='1")));
  assert.ok(injected.edges.length < transfers.length);
  const literal = graphql(`{ transfers(memo: "x' OR '1'='1") { edges { node { memo } } } }`).data!.transfers as { edges: unknown[] };
  assert.is(literal.edges.length, transfers.filter((t) => t.memo === "x' OR '1'='1").length);
});

test('one event decoded by id; errors of the query come back as GraphQL errors', () => {
  const first = graphql('{ transfers(first: 1) { edges { cursor } } }').data!.transfers as { edges: { cursor: string }[] };
  const id = BigInt(`0x${first.edges[0]!.cursor}`);
  const r = graphql(`{ event(db: 4, id: "${id}") { event_found event_service event_type event_unpack_ok from to amount memo } }`);
  assert.equal(r.data!.event, {
    event_found: true, event_service: 'tokens', event_type: 'transferred', event_unpack_ok: true, ...transfers[0]!,
  });
  const bad = graphql('{ transfers(first: -1) { edges { cursor } } }');
  assert.match(bad.errors![0]!.message, 'first must not be negative');
  const both = graphql('{ transfers(first: 1, last: 1) { edges { cursor } } }');
  assert.match(both.errors![0]!.message, 'first and last cannot both be set');
});

test.run();
