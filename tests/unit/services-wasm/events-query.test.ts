// Event queries (docs/serving.md §4.7 "Event queries", §7) through the real events service: a test
// service's GraphQL field builds an EventQuery and writes its Connection; graphql-js executes a
// reference resolver over the same events (decoded by host-api) with each condition written
// as a TypeScript predicate. Conditions with LIKE wildcards in the parameters, injection
// attempts in the parameters, paging forward and backward with cursors from earlier pages, and
// the errors: unknown columns, syntax errors with positions, placeholder counts, negative
// counts, first with last, bad cursors and unknown tables.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql } from 'graphql';
import { DbId } from '../../../host-api/abi/databases.js';
import { Random } from '../../lib/random.js';
import { cursorsBothWays, type Page } from './connection-paging.js';
import { compareBigints, referenceConnection, type IndexModel } from './connection-reference.js';
import { EventsChain, SDL, type Written } from './events-chain.js';

let events: EventsChain;
const schema = buildSchema(SDL);
const rnd = new Random(0xe7e175);

interface Transfer { from: string; to: string; amount: string; memo: string }

/** SQL LIKE (ASCII letters in either case) as a regular expression; `escape` makes the next character literal. */
function like(text: string, pattern: string, escape?: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === escape && i + 1 < pattern.length) source += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') source += '[^]*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'iu').test(text);
}

const INJECTIONS = ["x' OR '1'='1", "alice' --", "%' OR 1=1 --", "'; DROP TABLE events; --", '" OR "to" = "to'];

/** Conditions with their parameters and what they mean, written directly in TypeScript. */
const CONDITIONS: { where: string; params: string[]; keep: (t: Transfer) => boolean }[] = [
  { where: '', params: [], keep: () => true },
  { where: '"to" = ? AND memo LIKE ?', params: ['alice', '%rent%'], keep: (t) => t.to === 'alice' && like(t.memo, '%rent%') },
  { where: 'amount > ?', params: ['100'], keep: (t) => BigInt(t.amount) > 100n },
  { where: 'amount >= 18446744073709551614', params: [], keep: (t) => BigInt(t.amount) >= 18446744073709551614n },
  { where: 'amount < 18446744073709551615', params: [], keep: (t) => BigInt(t.amount) < 18446744073709551615n },
  { where: 'amount = ?', params: ['18446744073709551615'], keep: (t) => t.amount === '18446744073709551615' },
  { where: '"from" IN (\'alice\', ?, \'dave\') AND amount <= ?', params: ['bob', '500'], keep: (t) => ['alice', 'bob', 'dave'].includes(t.from) && BigInt(t.amount) <= 500n },
  { where: 'NOT ("to" = ? OR "to" = ?)', params: ['bob', 'carol'], keep: (t) => t.to !== 'bob' && t.to !== 'carol' },
  { where: '"to" NOT IN (?, ?)', params: ['bob', 'carol'], keep: (t) => t.to !== 'bob' && t.to !== 'carol' },
  { where: 'memo LIKE ? ESCAPE ?', params: ['100\\%%', '\\'], keep: (t) => t.memo.startsWith('100%') },
  { where: "memo like 'a_b'", params: [], keep: (t) => like(t.memo, 'a_b') },
  { where: 'memo NOT LIKE ?', params: ['%e%'], keep: (t) => !like(t.memo, '%e%') },
  { where: 'memo LIKE ?', params: ['bul%'], keep: (t) => like(t.memo, 'bul%') },
  { where: '(amount < 10 OR amount = ?) and MEMO <> \'\'', params: ['777'], keep: (t) => (BigInt(t.amount) < 10n || t.amount === '777') && t.memo !== '' },
  { where: 'memo IS NOT NULL AND amount != 5', params: [], keep: (t) => t.amount !== '5' },
  { where: 'memo IS NULL', params: [], keep: () => false },
  { where: 'memo > ? AND memo < ?', params: ['b', 'r'], keep: (t) => t.memo > 'b' && t.memo < 'r' },
  { where: 'amount = \'5\' OR amount = 7.0', params: [], keep: (t) => t.amount === '5' || t.amount === '7' },
  { where: 'amount > ?', params: ['abc'], keep: () => false },
  ...INJECTIONS.map((p) => ({ where: '"to" = ?', params: [p], keep: (t: Transfer) => t.to === p })),
  ...INJECTIONS.map((p) => ({ where: 'memo = ?', params: [p], keep: (t: Transfer) => t.memo === p })),
  ...INJECTIONS.map((p) => ({ where: 'memo LIKE ?', params: [p], keep: (t: Transfer) => like(t.memo, p) })),
];

const cursorOf = (id: bigint) => id.toString(16).padStart(16, '0').toUpperCase();

interface Args { table: string; where?: string; params?: string[]; first?: number; last?: number; before?: string; after?: string }

/** The emitter's transfers the condition keeps, by the Cursor Connections algorithm (events take no key bounds). */
function reference(args: Args) {
  const condition = CONDITIONS.find((c) => c.where === (args.where ?? '') && JSON.stringify(c.params) === JSON.stringify(args.params ?? []))!;
  const service = args.table.split('.')[1];
  const rows: Written[] = events.written.filter((w) => w.db === DbId.historyEvent && w.service === service && w.type === 'transferred' && w.fields !== null
    && condition.keep(w.fields as unknown as Transfer));
  const index: IndexModel<Written, bigint> = {
    rows, cursorOf: (w) => cursorOf(w.id), keyOf: (w) => w.id, compare: compareBigints,
    parse: () => {
      throw new Error('an event query has no key bounds');
    },
  };
  return referenceConnection(index, (w) => w.fields, args);
}

function queryText(args: Args): string {
  const text = Object.entries(args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
  return `{ events(${text}) { edges { node { from to amount memo nothing } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`;
}

async function agree(args: Args): Promise<Page> {
  const query = queryText(args);
  const mine = events.query('emitter', query);
  const theirs = JSON.parse(JSON.stringify(await graphql({ schema, source: query, rootValue: { events: reference } })));
  assert.equal(mine, theirs, query);
  return (mine.data as { events: Page }).events;
}

const TABLE = 'history.emitter.transferred';

test.before(async () => {
  events = await EventsChain.open();
  const names = ['alice', 'bob', 'carol', 'dave'];
  const memos = ['rent', 'Rent for May', 'parent visit', '100%', '100% sure', 'acb', 'a_b', 'aXb', 'ab', '', 'café', 'zebra', 'quote \' inside', ...INJECTIONS];
  const amounts = ['0', '5', '7', '9', '99', '100', '101', '500', '777', '4294967296', '9007199254740993', '18446744073709551614', '18446744073709551615'];
  for (let i = 0; i < 60; i++) {
    const from = rnd.pick(names);
    const to = rnd.pick(names.filter((n) => n !== from));
    events.act(rnd.next() < 0.85 ? 'emitter' : 'other', 'transfer', { from, to, amount: rnd.pick(amounts), memo: rnd.pick(memos) });
    if (i % 10 === 3) events.act('emitter', 'click', { n: i });
  }
  // Events of the same service but another type, and a transferred record that does not decode: not rows of the table.
  events.act('emitter', 'note', { value: 1, ratio: 1, flag: true, tags: [], extra: null, point: { x: 0, y: 0 }, detail: null, payload: '', at: '2024-01-01T00:00:00Z', big: '1', hash: '00'.repeat(32) });
  const bad = events.record('emitter', 'transferred', 'transferred', { from: 'alice', to: 'bob', amount: 1, memo: 'x' });
  bad[bad.length - 1] = 0xff;
  events.act('emitter', 'emitRaw', { db: DbId.historyEvent, record: bad }, 'transferred');
  events.act('emitter', 'transfer', { from: 'alice', to: 'bob', amount: 3, memo: 'the last one' });
});

test.after(async () => {
  await events?.close();
});

test('every condition over the whole table, and each page of a few counts', async () => {
  for (const c of CONDITIONS) {
    const all = await agree({ table: TABLE, where: c.where, params: c.params });
    for (const count of [0, 1, 3]) {
      await agree({ table: TABLE, where: c.where, params: c.params, first: count });
      await agree({ table: TABLE, where: c.where, params: c.params, last: count });
    }
    if (c.where === '"to" = ? AND memo LIKE ?') assert.ok(all.edges.length > 0, 'the LIKE condition keeps some events');
  }
});

test('another service\'s table holds only its events', async () => {
  const page = await agree({ table: 'history.other.transferred' });
  assert.is(page.edges.length, events.written.filter((w) => w.service === 'other').length);
  assert.ok(page.edges.length > 0);
});

test('random counts and cursors from earlier pages, forward and backward', async () => {
  for (let i = 0; i < 120; i++) {
    const c = rnd.pick(CONDITIONS.slice(0, 12));
    const args: Args = { table: TABLE, where: c.where, params: c.params };
    if (rnd.next() < 0.5) args.first = rnd.int(6);
    else if (rnd.next() < 0.7) args.last = rnd.int(6);
    const page = await agree(args);
    if (page.edges.length > 0) {
      await agree({ ...args, after: page.edges.at(-1)!.cursor });
      await agree({ ...args, before: page.edges[0]!.cursor });
      await agree({ ...args, after: page.edges[0]!.cursor, before: page.edges.at(-1)!.cursor });
    }
  }
});

test('paging forward and backward through a table visits every event once', async () => {
  for (const c of [CONDITIONS[0]!, CONDITIONS[2]!]) {
    const { forward, backward } = await cursorsBothWays((page) => agree({ table: TABLE, where: c.where, params: c.params, ...page }), 4, 5);
    assert.equal(backward, forward);
    assert.is(forward.length, reference({ table: TABLE, where: c.where, params: c.params }).edges.length);
  }
});

test('errors are GraphQL errors with clear messages, and no data for the field', () => {
  const cases: [Args, RegExp][] = [
    [{ table: TABLE, where: 'nope = 1' }, /unknown column "nope" at position 1 \(columns: from, to, amount, memo\)/],
    [{ table: TABLE, where: 'amount >' }, /syntax error at position 9: expected a value, a column name, \? or \(, found the end of the condition/],
    [{ table: TABLE, where: 'amount > 1 memo' }, /syntax error at position 12: expected AND, OR or the end of the condition, found "memo"/],
    [{ table: TABLE, where: "memo = 'unterminated" }, /syntax error at position 8: unterminated string/],
    [{ table: TABLE, where: 'amount BETWEEN 1 AND 2' }, /syntax error at position 8/],
    [{ table: TABLE, where: 'amount > ? AND memo = ?', params: ['1'] }, /the condition has 2 placeholders \(\?\) but 1 parameters were given/],
    [{ table: TABLE, where: 'amount > 1', params: ['1'] }, /the condition has 0 placeholders/],
    [{ table: TABLE, first: -1 }, /first must not be negative/],
    [{ table: TABLE, last: -2 }, /last must not be negative/],
    [{ table: TABLE, first: 1, last: 1 }, /first and last cannot both be set/],
    [{ table: TABLE, after: 'zz' }, /after is not a cursor/],
    [{ table: TABLE, before: '00' }, /before is not a cursor/],
    [{ table: TABLE, where: "memo LIKE 'a' ESCAPE 'ab'" }, /ESCAPE expression must be a single character/],
    [{ table: 'history.nobody.transferred' }, /unknown table "history.nobody.transferred": nobody has no service schema/],
    [{ table: 'history.emitter.nothing' }, /emitter has no history event nothing/],
    [{ table: 'ui.emitter.transferred' }, /emitter has no ui event transferred/],
    [{ table: 'transferred' }, /a table is named <history\|ui\|merkle>.<service>.<event>/],
  ];
  for (const [args, message] of cases) {
    const query = queryText(args);
    const r = events.query('emitter', query) as { data?: { events: unknown }; errors?: { message: string }[] };
    assert.ok(r.errors && r.errors.length === 1, query);
    assert.match(r.errors![0]!.message, message, query);
    assert.equal(r.data, { events: null }, query);
  }
});

test('a query decodes at most 2,000 of its table\'s events: past that, a clear error instead of running out of memory', async () => {
  for (let i = 0; i < 2100; i++) events.act('emitter', 'transfer', { from: 'alice', to: 'bob', amount: i, memo: 'bulk' });
  const none = events.query('emitter', queryText({ table: TABLE, where: 'memo = ?', params: ['never'], first: 3 })) as { errors?: { message: string }[] };
  assert.match(none.errors?.[0]?.message ?? '', /the query decoded 2000 events of history.emitter.transferred without completing its page; ask for fewer with first or last, or narrow the range with after or before/);
  // Pages that fill before the bound are answered as always, in both directions.
  await agree({ table: TABLE, first: 3 });
  await agree({ table: TABLE, where: 'memo LIKE ?', params: ['bul%'], last: 3 });
  const tail = await agree({ table: TABLE, where: 'memo LIKE ?', params: ['bul%'], last: 2 });
  await agree({ table: TABLE, where: 'memo LIKE ?', params: ['bul%'], first: 2, after: tail.edges[0]!.cursor });
});

test('a ui table and the events of another kind', async () => {
  const r = events.query('emitter', '{ events(table: "ui.emitter.clicked") { edges { node { n } } } }') as { data: { events: { edges: { node: { n: number } }[] } } };
  assert.equal(r.data.events.edges.map((e) => e.node.n), events.written.filter((w) => w.type === 'clicked').map((w) => (w.fields as { n: number }).n));
});

test.run();
