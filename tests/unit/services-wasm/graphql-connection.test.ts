// Table indexes as GraphQL Connections (docs/serving.md §4.7, GraphQL Cursor Connections Specification),
// served by a real service on the in-process test chain and checked against graphql-js
// executing a reference resolver over the same rows: every combination of gt/ge/lt/le,
// first/last and cursors from earlier pages, forward and backward, on a u64 primary key and a
// string secondary key, with empty ranges and the argument errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql } from 'graphql';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { bytesToHex as hex } from '../../lib/hex.js';
import { Random } from '../../lib/random.js';
import { compiledEntry, utf8 } from './program.js';
import { cursorsBothWays, type Page } from './connection-paging.js';
import { compareBigints, referenceConnection, type ConnectionArgs, type IndexModel } from './connection-reference.js';
import { ServiceCodec, type ServiceSchema } from '../../../host-api/client/service-codec.js';

const SDL = `
type Query {
  items(gt: String, ge: String, lt: String, le: String, first: Float, last: Float, before: String, after: String): ItemConnection!
  byLabel(gt: String, ge: String, lt: String, le: String, first: Float, last: Float, before: String, after: String): ItemConnection!
}
type Item { id: String! label: String! }
type ItemEdge { node: Item! cursor: String! }
type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
type PageInfo { hasPreviousPage: Boolean! hasNextPage: Boolean! startCursor: String endCursor: String }
`;

const ENTRY = 'tests/unit/services-wasm/programs/paged.ts';
const SOURCE = `
import * as sdk from "../../../../services-wasm/sdk/index";
import { writeConnection } from "../../../../services-wasm/sdk/graphql/connection";

@fracpack class Item { constructor(public id: u64 = 0, public label: string = "") {} }
const items = new sdk.Table<Item, u64>(1, (i: Item): u64 => i.id);
const byLabel = items.index<string>((i: Item): string => i.label);

class ItemObject extends sdk.GqlObject {
  constructor(public item: Item) { super(); }
  typeName(): string { return "Item"; }
  resolve(field: sdk.FieldRequest, exec: sdk.Execution): bool {
    if (field.name == "id") exec.writeString(this.item.id.toString());
    else if (field.name == "label") exec.writeString(this.item.label);
    else return false;
    return true;
  }
}

function node(item: Item): sdk.GqlObject { return new ItemObject(item); }

class Query extends sdk.GqlObject {
  typeName(): string { return "Query"; }
  nonNull(field: string): bool { return true; }
  resolve(field: sdk.FieldRequest, exec: sdk.Execution): bool {
    if (field.name == "items") writeConnection<Item, u64>(items.primary, field, exec, "Item", node);
    else if (field.name == "byLabel") writeConnection<Item, string>(byLabel, field, exec, "Item", node);
    else return false;
    return true;
  }
}

@service("paged")
class Paged {
  @action add(ids: Array<u64>, labels: Array<string>): void {
    for (let i = 0; i < ids.length; i++) items.put(new Item(ids[i], labels[i]));
  }
  @action query(query: string, variables: string): string {
    return sdk.executeQuery(new Query(), query, null, variables.length > 0 ? sdk.parseJson(variables) : null);
  }
}
`;

interface Item { id: bigint; label: string }
const ROWS: Item[] = [];
const rnd = new Random(0xc0ffee);
for (const id of [0n, 1n, 2n, 7n, 100n, 255n, 256n, 65_536n, 1n << 40n, (1n << 64n) - 1n]) {
  ROWS.push({ id, label: ['pear', 'apple', 'fig', 'kiwi', 'plum', 'date', 'lime', 'yuzu', 'sloe', 'akee'][ROWS.length]! });
}

/** The key encoding's order: u64 ids numerically, labels bytewise (UTF-8). */
const byId = [...ROWS].sort((a, b) => compareBigints(a.id, b.id));
const byLabelRows = [...ROWS].sort((a, b) => Buffer.compare(utf8(a.label), utf8(b.label)));

// Cursors are the hex of the key inside the index: big-endian-ordered encodings, so hex order is key order.
let idCursor: (i: Item) => string;
let labelCursor: (i: Item) => string;

const idIndex: IndexModel<Item, bigint> = { rows: byId, cursorOf: (i) => idCursor(i), keyOf: (i) => i.id, parse: (s) => BigInt(s), compare: compareBigints };
const labelIndex: IndexModel<Item, Uint8Array> = {
  rows: byLabelRows, cursorOf: (i) => labelCursor(i), keyOf: (i) => utf8(i.label), parse: (s) => utf8(String(s)), compare: Buffer.compare,
};
const node = (i: Item) => ({ id: String(i.id), label: i.label });
const root = {
  items: (args: ConnectionArgs) => referenceConnection(idIndex, node, args),
  byLabel: (args: ConnectionArgs) => referenceConnection(labelIndex, node, args),
};
const schema = buildSchema(SDL);

let chain: TestChain;
let codec: ServiceCodec;

async function ours(query: string): Promise<unknown> {
  const result = chain.run({ sender: 'paged', service: 'paged', method: 'query', rawData: codec.args('query', { query, variables: '' }) }, { mode: 'rpc' });
  assert.is(result.error, undefined);
  return JSON.parse(codec.result('query', result.retval) as string);
}

async function agree(field: 'items' | 'byLabel', args: ConnectionArgs): Promise<{ edges: { cursor: string }[] } | undefined> {
  const text = Object.entries(args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
  const query = `{ ${field}${text ? `(${text})` : ''} { edges { node { id label } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`;
  const mine = await ours(query) as { data?: Record<string, { edges: { cursor: string }[] }>; errors?: unknown[] };
  const theirs = JSON.parse(JSON.stringify(await graphql({ schema, source: query, rootValue: root }))) as typeof mine;
  if (theirs.errors) {
    assert.ok(mine.errors, `${query}: graphql-js refuses, ours ${JSON.stringify(mine)}`);
    return undefined;
  }
  assert.equal(mine, theirs, query);
  return mine.data![field];
}

test.before(async () => {
  const compiled = await compiledEntry(ENTRY, { [ENTRY]: SOURCE });
  codec = new ServiceCodec(compiled.schema as ServiceSchema);
  chain = TestChain.open();
  chain.deploy('paged', compiled.binary);
  const add = chain.run({ sender: 'paged', service: 'paged', method: 'add', rawData: codec.args('add', { ids: ROWS.map((r) => r.id), labels: ROWS.map((r) => r.label) }) });
  assert.is(add.error, undefined);
  // The cursor of each row, as the service reports it for the whole index.
  const all = await ours('{ items { edges { node { id } cursor } } byLabel { edges { node { id } cursor } } }') as
    { data: Record<string, { edges: { node: { id: string }; cursor: string }[] }> };
  const cursorsOf = (field: string) => new Map(all.data[field]!.edges.map((e) => [e.node.id, e.cursor]));
  const ids = cursorsOf('items');
  const labels = cursorsOf('byLabel');
  idCursor = (i) => ids.get(String(i.id))!;
  labelCursor = (i) => labels.get(String(i.id))!;
  // The opaque cursors are the key encodings: u64 big-endian for ids.
  assert.is(idCursor(byId[4]!), hex(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 100])));
});

test.after(async () => {
  await chain?.close();
});

test('whole indexes, in key order', async () => {
  const items = await agree('items', {});
  assert.is(items!.edges.length, ROWS.length);
  await agree('byLabel', {});
});

test('every combination of bounds and counts, and cursors from earlier pages', async () => {
  const idValues = ['0', '1', '3', '100', '256', '18446744073709551615', '18446744073709551614'];
  const labelValues = ['', 'a', 'apple', 'kiwi', 'pz', 'yuzu', 'zzz'];
  for (let i = 0; i < 250; i++) {
    const field = rnd.next() < 0.5 ? 'items' as const : 'byLabel' as const;
    const values = field === 'items' ? idValues : labelValues;
    const args: ConnectionArgs = {};
    for (const bound of ['gt', 'ge', 'lt', 'le'] as const) if (rnd.next() < 0.25) args[bound] = rnd.pick(values);
    if (rnd.next() < 0.5) args.first = rnd.int(5);
    if (rnd.next() < 0.4) args.last = rnd.int(5);
    const page = await agree(field, args);
    // Resume after the page's end, or before its start, with the same bounds.
    if (page && page.edges.length > 0) {
      await agree(field, { ...args, after: page.edges.at(-1)!.cursor });
      await agree(field, { ...args, before: page.edges[0]!.cursor });
    }
  }
});

test('paging forward and backward through a whole index visits every row once', async () => {
  for (const field of ['items', 'byLabel'] as const) {
    const { forward, backward } = await cursorsBothWays(async (page) => await agree(field, page) as Page, 3, 4);
    assert.is(forward.length, ROWS.length);
    assert.equal(backward, forward);
  }
});

test('bad arguments are errors without data (field errors null the non-null connection, hence data)', async () => {
  for (const query of [
    '{ items(first: -1) { edges { cursor } } }',
    '{ items(last: 1.5) { edges { cursor } } }',
    '{ items(gt: "-1") { edges { cursor } } }',
    '{ items(gt: "18446744073709551616") { edges { cursor } } }',
    '{ items(after: "not hex") { edges { cursor } } }',
    '{ byLabel(gt: 5) { edges { cursor } } }',
    '{ items { edges { node { nothing } } } }',
  ]) {
    const r = await ours(query) as { data?: unknown; errors?: unknown[] };
    assert.ok(r.errors && r.errors.length > 0, query);
    assert.ok(r.data === undefined || r.data === null, query);
  }
});

test.run();
