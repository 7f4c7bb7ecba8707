// GraphQL generated from classes (docs/serving.md §4.7): a @query root and the records it reaches,
// compiled by the transform into a test service on the in-process chain. The SDL it serves builds
// with graphql-js and maps types as rule 4 says; for many queries over the same rows (connections
// on u64, string and account keys paged forward and backward with every argument combination,
// nested objects, lists, options, aliases, fragments, variables, const methods with arguments,
// 64-bit values) the service answers exactly what graphql-js answers executing a reference
// resolver on that SDL, field errors (message, locations, path, nulls propagated) included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { accountNumberFromName } from '../../../host-api/index.js';
import { bytesToHex } from '../../lib/hex.js';
import { Random } from '../../lib/random.js';
import { openSchemaService, type Response, type SchemaService } from './graphql-schema-service.js';
import { accountBound, compareBigints, referenceConnection, type ConnectionArgs, type IndexModel } from './connection-reference.js';

/** An account number no name has (its rank is out of range). */
const NOT_AN_ACCOUNT = (1n << 64n) - 1n;

interface Row {
  id: bigint; label: string; owner: string; small: number; signed: number; ratio: number; big: bigint; flag: boolean;
  data: Uint8Array; tags: string[]; at: { x: number; y: number }; note: string | null; maybe: number | null; friends: (string | bigint | null)[];
}

const rnd = new Random(0x9a9a);
const LABELS = ['pear', 'apple', 'fig', 'kiwi', 'plum', 'date', 'lime', 'yuzu', 'sloe', 'akee', 'Äpfel', ''];
const OWNERS = ['alice', 'bob', 'carol', 'dave', 'eve', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'a', ''];
const IDS = [0n, 1n, 2n, 7n, 100n, 255n, 256n, 65_536n, 1n << 40n, (1n << 63n) + 5n, (1n << 64n) - 2n, (1n << 64n) - 1n];
const RATIOS = [0.1, 1 / 3, 1e21, 1.5e-7, -2.5, 0, 123.456, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, Math.fround(0.1), -0.30000000000000004];
const ROWS: Row[] = IDS.map((id, i) => ({
  id,
  label: LABELS[i]!,
  owner: OWNERS[i]!,
  small: rnd.int(256),
  signed: rnd.int(2 ** 32) - 2 ** 31,
  ratio: RATIOS[i]!,
  big: i % 3 === 0 ? -(1n << 63n) + BigInt(i) : BigInt(rnd.int(1e9)) * 1_000_000_007n,
  flag: i % 2 === 0,
  data: new Uint8Array(Array.from({ length: i % 4 }, () => rnd.int(256))),
  tags: Array.from({ length: i % 3 }, (_, j) => `t${i}.${j}`),
  at: { x: i - 5, y: rnd.int(1000) },
  note: i % 4 === 1 ? null : `note "${i}"\n`,
  maybe: i % 3 === 1 ? null : rnd.int(2 ** 32),
  friends: i === 5 ? ['bob', NOT_AN_ACCOUNT, null] : i % 2 ? ['carol', null] : [],
}));

const SDL_EXPECTED = `type Query {
  items(gt: String, ge: String, lt: String, le: String, first: Float, last: Float, before: String, after: String): ItemConnection!
  byLabel(gt: String, ge: String, lt: String, le: String, first: Float, last: Float, before: String, after: String): ItemConnection!
  byOwner(gt: String, ge: String, lt: String, le: String, first: Float, last: Float, before: String, after: String): ItemConnection!
  item(id: String!): Item
  labelled(label: String!, suffix: String): [String!]!
}
`;

// The reference: rows as graphql-js sees them.
const hex = (b: Uint8Array) => bytesToHex(b).toUpperCase();
const ownerNumber = (name: string) => accountNumberFromName(name);

function checkWhole(name: string, value: number, type: string, lo: number, hi: number): number {
  if (!Number.isInteger(value) || value < lo || value > hi) throw new Error(`Argument "${name}" is not a ${type}: ${value}`);
  return value;
}

class ItemRef {
  constructor(private readonly r: Row) {}
  get id() { return String(this.r.id); }
  get label() { return this.r.label; }
  get owner() { return this.r.owner; }
  get small() { return this.r.small; }
  get signed() { return this.r.signed; }
  get ratio() { return this.r.ratio; }
  get big() { return String(this.r.big); }
  get flag() { return this.r.flag; }
  get data() { return hex(this.r.data); }
  get tags() { return this.r.tags; }
  get at() { return this.r.at; }
  get note() { return this.r.note; }
  get maybe() { return this.r.maybe; }
  get friends() {
    return this.r.friends.map((f) => (typeof f === 'bigint' ? new Error(`Not an account number: ${f}`) : f));
  }
  get double() { return String(BigInt.asUintN(64, this.r.id * 2n)); }
  scaled({ by, offset }: { by: number; offset?: number | null }) {
    checkWhole('by', by, 'u32', 0, 2 ** 32 - 1);
    if (offset != null) checkWhole('offset', offset, 'i32', -(2 ** 31), 2 ** 31 - 1);
    return this.r.ratio * by + (offset ?? 0);
  }
  quotient({ by }: { by: number }) { return this.r.ratio / by; }
}

function decimalKey(value: string | number, name: string): bigint {
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value) || BigInt(value) >= 1n << 64n || String(BigInt(value)) !== value) {
    throw new Error(`Argument "${name}" is not a u64: ${value}`);
  }
  return BigInt(value);
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
let cursors: Record<'items' | 'byLabel' | 'byOwner', Map<bigint, string>>;

function model<K>(rows: Row[], field: 'items' | 'byLabel' | 'byOwner', keyOf: (r: Row) => K, parse: (v: string | number, name: string) => K, compare: (a: K, b: K) => number): IndexModel<Row, K> {
  return { rows: [...rows].sort((a, b) => compare(keyOf(a), keyOf(b))), cursorOf: (r) => cursors[field].get(r.id)!, keyOf, parse, compare };
}

function referenceRoot(rows: Row[]) {
  const models = {
    items: model(rows, 'items', (r) => r.id, decimalKey, compareBigints),
    byLabel: model(rows, 'byLabel', (r) => utf8(r.label), (v) => utf8(String(v)), Buffer.compare),
    byOwner: model(rows, 'byOwner', (r) => ownerNumber(r.owner), accountBound, compareBigints),
  };
  const node = (r: Row) => new ItemRef(r);
  return {
    items: (args: ConnectionArgs) => referenceConnection(models.items, node, args),
    byLabel: (args: ConnectionArgs) => referenceConnection(models.byLabel, node, args),
    byOwner: (args: ConnectionArgs) => referenceConnection(models.byOwner, node, args),
    item: ({ id }: { id: string }) => {
      const key = decimalKey(id, 'id');
      const row = rows.find((r) => r.id === key);
      return row ? new ItemRef(row) : null;
    },
    labelled: ({ label, suffix }: { label: string; suffix?: string | null }) => rows.filter((r) => r.label === label).map((r) => r.label + (suffix ?? '')),
  };
}

let service: SchemaService;
let sdl: string;
let schema: GraphQLSchema;

const call = (method: string, args: unknown) => service.call(method, args);
const ours = (query: string, variables?: Record<string, unknown>): Response => service.query(query, variables);

async function theirs(query: string, variables?: Record<string, unknown>, rows = ROWS): Promise<Response> {
  return JSON.parse(JSON.stringify(await graphql({ schema, source: query, rootValue: referenceRoot(rows), variableValues: variables }))) as Response;
}

/** Our answer equals graphql-js's; a query graphql-js refuses (validation) gets errors and no data from us too. */
async function agree(query: string, variables?: Record<string, unknown>, rows = ROWS): Promise<Response> {
  const mine = ours(query, variables);
  const reference = await theirs(query, variables, rows);
  if (reference.errors && !('data' in reference)) {
    assert.ok(mine.errors && mine.errors.length > 0 && !('data' in mine), `${query}: graphql-js refuses (${JSON.stringify(reference.errors)}), ours ${JSON.stringify(mine)}`);
    return mine;
  }
  assert.equal(mine, reference, `${query} ${JSON.stringify(variables ?? {})}`);
  return mine;
}

const NODE = 'id label owner small signed ratio big flag data tags at { x y } note maybe double scaled(by: 1) quotient(by: 2)';

test.before(async () => {
  service = await openSchemaService(ROWS);
  sdl = call('sdl', {}) as string;
  schema = buildSchema(sdl);
  // The cursor of each row in each index, as the service reports it for the whole index.
  const all = ours('{ items { edges { node { id } cursor } } byLabel { edges { node { id } cursor } } byOwner { edges { node { id } cursor } } }') as
    { data: Record<string, { edges: { node: { id: string }; cursor: string }[] }> };
  const of = (field: string) => new Map(all.data[field]!.edges.map((e) => [BigInt(e.node.id), e.cursor]));
  cursors = { items: of('items'), byLabel: of('byLabel'), byOwner: of('byOwner') };
});

test.after(async () => {
  await service?.chain.close();
});

test('the SDL builds with graphql-js and maps types as rule 4 says', () => {
  assert.ok(sdl.startsWith(SDL_EXPECTED), sdl);
  const item = schema.getType('Item') as import('graphql').GraphQLObjectType;
  const fieldTypes = Object.fromEntries(Object.values(item.getFields()).map((f) => [f.name, String(f.type)]));
  assert.equal(fieldTypes, {
    id: 'String!', label: 'String!', owner: 'String!', small: 'Float!', signed: 'Float!', ratio: 'Float!', big: 'String!', flag: 'Boolean!',
    data: 'String!', tags: '[String!]!', at: 'Point!', note: 'String', maybe: 'Float', friends: '[String]!',
    scaled: 'Float!', quotient: 'Float!', double: 'String!',
  });
  assert.equal(item.getFields().scaled!.args.map((a) => `${a.name}: ${String(a.type)}`), ['by: Float!', 'offset: Float']);
  for (const name of ['ItemEdge', 'ItemConnection', 'PageInfo', 'Point']) assert.ok(schema.getType(name), name);
  assert.is(Object.keys((schema.getType('PageInfo') as import('graphql').GraphQLObjectType).getFields()).join(' '), 'hasPreviousPage hasNextPage startCursor endCursor');
});

test('a row type reached only through a connection is in the SDL; small integer keys are Float bounds', () => {
  const tagsSchema = buildSchema(call('tagsSdl', {}) as string);
  const query = tagsSchema.getQueryType()!.getFields();
  assert.equal(query.tags!.args.map((a) => `${a.name}: ${String(a.type)}`).slice(0, 4), ['gt: Float', 'ge: Float', 'lt: Float', 'le: Float']);
  const tag = tagsSchema.getType('Tag') as import('graphql').GraphQLObjectType;
  assert.equal(Object.values(tag.getFields()).map((f) => `${f.name}: ${String(f.type)}`), ['name: String!', 'weight: Float!']);
});

test('whole indexes with every field, in key order', async () => {
  for (const field of ['items', 'byLabel', 'byOwner']) {
    const r = await agree(`{ ${field} { edges { node { ${NODE} } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`);
    assert.is((r.data as Record<string, { edges: unknown[] }>)[field]!.edges.length, ROWS.length);
  }
});

test('every combination of bounds and counts, cursors from earlier pages', async () => {
  const values = {
    items: ['0', '1', '3', '256', '18446744073709551614', '18446744073709551615', '-1', 'x', '18446744073709551616'],
    byLabel: ['', 'a', 'apple', 'kiwi', 'pz', 'yuzu', 'zzz', 'Ä'],
    byOwner: ['', 'a', 'alice', 'carol', 'eve', 'zzz', 'Not!Valid'],
  };
  for (let i = 0; i < 300; i++) {
    const field = rnd.pick(['items', 'byLabel', 'byOwner'] as const);
    const args: ConnectionArgs = {};
    for (const bound of ['gt', 'ge', 'lt', 'le'] as const) if (rnd.next() < 0.2) args[bound] = rnd.pick(values[field]);
    if (rnd.next() < 0.5) args.first = rnd.pick([0, 1, 2, 5, 100, -1, 1.5]);
    if (rnd.next() < 0.4) args.last = rnd.pick([0, 1, 3, 20, -2]);
    const text = (a: ConnectionArgs) => Object.entries(a).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
    const query = (a: ConnectionArgs) => `{ ${field}${Object.keys(a).length ? `(${text(a)})` : ''} { edges { node { id label } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`;
    const page = (await agree(query(args))).data as Record<string, { edges: { cursor: string }[] }> | null;
    const edges = page?.[field]?.edges ?? [];
    if (edges.length > 0) {
      await agree(query({ ...args, after: edges.at(-1)!.cursor }));
      await agree(query({ ...args, before: edges[0]!.cursor }));
    }
  }
});

test('paging forward and backward through every index visits each row once', async () => {
  for (const field of ['items', 'byLabel', 'byOwner'] as const) {
    const forward: string[] = [];
    let after: string | null = null;
    const q = 'query Page($n: Float, $after: String, $before: String) { F(first: $n, after: $after, before: $before) { edges { cursor } pageInfo { hasNextPage hasPreviousPage } } }';
    for (;;) {
      const r = await agree(q.replace('F(first', `${field}(first`), { n: 5, after });
      const conn = (r.data as Record<string, { edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean } }>)[field]!;
      forward.push(...conn.edges.map((e) => e.cursor));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.edges.at(-1)!.cursor;
    }
    const backward: string[] = [];
    let before: string | null = null;
    const qb = `query Page($n: Float, $before: String) { ${field}(last: $n, before: $before) { edges { cursor } pageInfo { hasPreviousPage } } }`;
    for (;;) {
      const r = await agree(qb, before ? { n: 4, before } : { n: 4 });
      const conn = (r.data as Record<string, { edges: { cursor: string }[]; pageInfo: { hasPreviousPage: boolean } }>)[field]!;
      backward.unshift(...conn.edges.map((e) => e.cursor));
      if (!conn.pageInfo.hasPreviousPage) break;
      before = conn.edges[0]!.cursor;
    }
    assert.is(forward.length, ROWS.length);
    assert.equal(backward, forward);
  }
});

test('objects, aliases, fragments, variables, const methods with arguments, 64-bit values', async () => {
  const queries: [string, Record<string, unknown>?][] = [
    ['{ item(id: "18446744073709551615") { id double big at { x y } } none: item(id: "3") { id } }'],
    ['{ a: item(id: "5") { ...F s: scaled(by: 7, offset: -3) } b: item(id: "7") { ...F } } fragment F on Item { id label ... on Item { owner friends } __typename }'],
    ['query Q($id: String!, $by: Float!, $off: Float) { item(id: $id) { scaled(by: $by, offset: $off) q: quotient(by: $by) } }', { id: '100', by: 4 }],
    ['query Q($id: String!, $by: Float!, $off: Float) { item(id: $id) { scaled(by: $by, offset: $off) } }', { id: '100', by: 4, off: -2147483648 }],
    ['{ labelled(label: "fig") labelled2: labelled(label: "fig", suffix: "!") none: labelled(label: "nope") }'],
    ['query Q($s: Boolean!) { item(id: "1") { id @skip(if: $s) label @include(if: $s) } }', { s: true }],
    ['{ items(first: 2) { ...C } } fragment C on ItemConnection { edges { node { id } } pageInfo { endCursor } }'],
    ['{ byOwner(gt: "dave", first: 3) { edges { node { owner friends } } } }'],
  ];
  for (const [query, variables] of queries) await agree(query, variables);
});

test('field errors carry message, locations and path, and null up to the nearest nullable field', async () => {
  const queries: [string, Record<string, unknown>?][] = [
    // Nullable root field: only it becomes null.
    ['{ bad: item(id: "x") { id } good: item(id: "1") { id } }'],
    ['{ item(id: "1") {\n  id\n  scaled(by: 1.5)\n} }'],
    ['{ item(id: "1") { quotient(by: 0) } }'],
    ['{ item(id: "100") { q: quotient(by: 0) } }'],
    // A nullable list item: that item only.
    ['{ item(id: "255") { friends } }'],
    // Inside a connection: non-null all the way up to data.
    ['{ items { edges { node { id scaled(by: -1) } } } }'],
    ['{ items(first: -1) { edges { cursor } } }'],
    ['{ byOwner(gt: "Not!Valid") { edges { cursor } } }'],
    ['{ items(after: "zz") { edges { cursor } } }'],
    ['query Q($n: Float) { items(last: $n) { edges { cursor } } }', { n: 0.5 }],
    ['{ a: item(id: "2") { ...F } } fragment F on Item {\n  scaled(by: 4294967296)\n}'],
  ];
  for (const [query, variables] of queries) {
    const r = await agree(query, variables);
    assert.ok(r.errors && r.errors.length > 0 && 'data' in r, `${query}: ${JSON.stringify(r)}`);
    for (const e of r.errors as { locations?: unknown; path?: unknown }[]) assert.ok(e.locations && e.path, JSON.stringify(e));
  }
});

test('what a validator refuses: errors and no data', async () => {
  for (const query of [
    '{ item { id } }',
    '{ item(id: 1) { id } }',
    '{ item(id: "1", extra: 2) { id } }',
    '{ items(first: "2") { edges { cursor } } }',
    '{ item(id: "1") { scaled } }',
    '{ item(id: "1") { secret } }',
    '{ hidden }',
    '{ item(id: "1") { at } }',
    '{ labelled(label: null) }',
  ]) await agree(query);
});

test('the comparison fails when the data differ', async () => {
  const changed = ROWS.map((r, i) => (i === 3 ? { ...r, label: `${r.label}!` } : r));
  let failed = false;
  try {
    await agree('{ items { edges { node { id label } } } }', undefined, changed);
  } catch {
    failed = true;
  }
  assert.ok(failed, 'a different label must fail the comparison');
});

test.run();
