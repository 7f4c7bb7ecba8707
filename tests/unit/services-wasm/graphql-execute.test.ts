// The SDK's GraphQL execution (GraphQL spec §6) against graphql-js 16 as the oracle: the same
// schema and data, resolved by hand-written GqlObjects in wasm and by plain resolvers in
// graphql-js; valid queries give the same data, invalid ones give errors and no data in both.
// Then the /graphql endpoint (docs/serving.md §4.7): every request form, the SDL, and what it declines.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql } from 'graphql';
import { program, utf8 } from './program.js';

const SDL = `
type Query { hello: String! count: Int! row(id: Int!): Row rows(first: Int): [Row!]! }
type Row { id: Int! label: String! amount: String! scaled(by: Int = 2): Int! next: Row }
`;
const ROWS = 10;

const SOURCE = `
import { ValueKind } from "../../../../services-wasm/sdk/graphql/ast";
import { Execution, FieldRequest, GqlObject, executeQuery } from "../../../../services-wasm/sdk/graphql/execute";
import { serveGraphQL } from "../../../../services-wasm/sdk/graphql/serve";

/** An Int argument, or \`fallback\` when absent; i32.MIN_VALUE after reporting a bad one. */
function intArgument(field: FieldRequest, name: string, fallback: i32, exec: Execution): i32 {
  const v = field.argument(name);
  if (v === null || v.kind == ValueKind.Null) return fallback;
  if (v.kind != ValueKind.Int) {
    exec.fail("Argument \\"" + name + "\\" of \\"" + field.name + "\\" must be an Int.");
    return i32.MIN_VALUE;
  }
  return I32.parseInt(v.text);
}

class Row extends GqlObject {
  constructor(public id: i32) { super(); }
  typeName(): string { return "Row"; }
  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "id") exec.writeInt(this.id);
    else if (field.name == "label") exec.writeString("row " + this.id.toString());
    else if (field.name == "amount") exec.writeString((<u64>this.id * 1844674407370955161).toString());
    else if (field.name == "scaled") {
      const by = intArgument(field, "by", 2, exec);
      if (!exec.failed) exec.writeInt(this.id * by);
    } else if (field.name == "next") exec.writeObject(this.id + 1 < ${ROWS} ? new Row(this.id + 1) : null);
    else return false;
    return true;
  }
}

class Query extends GqlObject {
  typeName(): string { return "Query"; }
  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "hello") exec.writeString("world");
    else if (field.name == "count") exec.writeInt(${ROWS});
    else if (field.name == "row") {
      const id = intArgument(field, "id", -1, exec);
      if (field.argument("id") === null) exec.fail("Field \\"row\\" argument \\"id\\" of type \\"Int!\\" is required.");
      if (!exec.failed) exec.writeObject(id >= 0 && id < ${ROWS} ? new Row(id) : null);
    } else if (field.name == "rows") {
      const first = intArgument(field, "first", ${ROWS}, exec);
      if (exec.failed) return true;
      exec.beginList();
      for (let i = 0; i < min(first, ${ROWS}); i++) {
        if (i) exec.nextItem();
        exec.writeObject(new Row(i));
      }
      exec.endList();
    } else return false;
    return true;
  }
}

export function run(): void {
  const request = sdk.parseJson(String.UTF8.decodeUnsafe(input.dataStart, input.length));
  const name = request.get("operationName");
  const response = executeQuery(new Query(), request.get("query")!.text, name !== null ? name.text : null, request.get("variables"));
  output = Uint8Array.wrap(String.UTF8.encode(response));
}

/** input: JSON {method, target, contentType, body}; output: "<status> <content type>\\n<body>", or "declined". */
export function serve(): void {
  const r = sdk.parseJson(String.UTF8.decodeUnsafe(input.dataStart, input.length));
  const request = new sdk.HttpRequest("rows.tsibase.localhost", r.get("method")!.text, r.get("target")!.text, r.get("contentType")!.text,
    [], Uint8Array.wrap(String.UTF8.encode(r.get("body")!.text)));
  const reply = serveGraphQL(request, new Query(), ${JSON.stringify(SDL)});
  const text = reply === null ? "declined"
    : reply.status.toString() + " " + reply.contentType + "\\n" + String.UTF8.decodeUnsafe(reply.body.dataStart, reply.body.length);
  output = Uint8Array.wrap(String.UTF8.encode(text));
}
`;

class Row {
  constructor(readonly id: number) {}
  get label() { return `row ${this.id}`; }
  get amount() { return (BigInt(this.id) * 1844674407370955161n).toString(); }
  scaled({ by }: { by: number }) { return this.id * by; }
  next() { return this.id + 1 < ROWS ? new Row(this.id + 1) : null; }
}

const root = {
  hello: 'world',
  count: ROWS,
  row: ({ id }: { id: number }) => (id >= 0 && id < ROWS ? new Row(id) : null),
  rows: ({ first }: { first?: number | null }) => Array.from({ length: Math.max(0, Math.min(first ?? ROWS, ROWS)) }, (_, i) => new Row(i)),
};
const schema = buildSchema(SDL);

interface Request { query: string; operationName?: string; variables?: Record<string, unknown> }

async function agree(request: Request): Promise<void> {
  const p = await program('graphql-execute', SOURCE);
  const ours = JSON.parse(new TextDecoder().decode(p.run('run', utf8(JSON.stringify(request))))) as { data?: unknown; errors?: unknown[] };
  const theirs = JSON.parse(JSON.stringify(await graphql({
    schema, source: request.query, rootValue: root, operationName: request.operationName, variableValues: request.variables,
  }))) as { data?: unknown; errors?: unknown[] };
  const label = JSON.stringify(request);
  if (theirs.errors) {
    assert.ok(ours.errors && ours.errors.length > 0, `${label}: graphql-js refuses (${JSON.stringify(theirs.errors)}), ours ${JSON.stringify(ours)}`);
    assert.is(ours.data, undefined, label);
    return;
  }
  assert.equal(ours, theirs, label);
}

const VALID: Request[] = [
  { query: '{ hello count }' },
  { query: '{ rows { id label amount } }' },
  { query: 'query { a: row(id: 3) { id, twice: scaled, thrice: scaled(by: 3) } b: row(id: 42) { id } }' },
  { query: '{ row(id: 7) { next { next { next { id } } } } }' },
  { query: '{ rows(first: 2) { __typename id } __typename }' },
  { query: '{ rows(first: 0) { id } }' },
  { query: '{ rows(first: -1) { id } }' },
  { query: '{ row(id: 1) { ...F ... on Row { amount } ... { label } } } fragment F on Row { id label }' },
  { query: '{ row(id: 1) { id ...F } } fragment F on Row { id next { ...G } } fragment G on Row { label }' },
  { query: '{ a: row(id: 1) { id } a: row(id: 1) { label } }' },
  { query: 'query Q($id: Int!, $by: Int = 5) { row(id: $id) { scaled(by: $by) } }', variables: { id: 4 } },
  { query: 'query Q($id: Int!, $by: Int = 5) { row(id: $id) { scaled(by: $by) } }', variables: { id: 4, by: 10 } },
  { query: 'query Q($n: Int) { rows(first: $n) { id } }', variables: { n: null } },
  { query: 'query Q($s: Boolean!) { hello @skip(if: $s) count @include(if: $s) }', variables: { s: true } },
  { query: 'query Q($s: Boolean!) { hello @skip(if: $s) count @include(if: $s) }', variables: { s: false } },
  { query: '{ hello @skip(if: true) @include(if: true) count @skip(if: false) }' },
  { query: 'query A { hello } query B { count }', operationName: 'B' },
];

const INVALID: Request[] = [
  { query: '{ nothing }' },
  { query: '{ hello { length } }' },
  { query: '{ row(id: 1) }' },
  { query: '{ row(id: "one") { id } }' },
  { query: '{ row { id } }' },
  { query: '{ a: hello a: count }' },
  { query: 'query A { hello } query B { count }' },
  { query: 'query A { hello }', operationName: 'B' },
  { query: 'query Q($id: Int!) { row(id: $id) { id } }' },
  { query: 'query Q($id: Int!) { row(id: $id) { id } }', variables: { id: null } },
  { query: '{ row(id: $undefined) { id } }' },
  { query: '{ row(id: 1) { ...Missing } }' },
  { query: '{ row(id: 1) { ...F } } fragment F on Row { ...F }' },
  { query: '{ hello' },
  { query: 'mutation { hello }' },
];

test('valid queries: the same data as graphql-js', async () => {
  for (const request of VALID) await agree(request);
});

test('invalid queries: errors and no data, as graphql-js', async () => {
  for (const request of INVALID) await agree(request);
});

interface HttpCall { method: string; target: string; contentType?: string; body?: string }

async function serve(call: HttpCall): Promise<string> {
  const p = await program('graphql-execute', SOURCE);
  return new TextDecoder().decode(p.run('serve', utf8(JSON.stringify({ contentType: '', body: '', ...call }))));
}

test('/graphql: GET gives the SDL; every request form runs the query', async () => {
  assert.is(await serve({ method: 'GET', target: '/graphql' }), `200 text/plain\n${SDL}`);
  assert.ok(buildSchema((await serve({ method: 'GET', target: '/graphql' })).split('\n').slice(1).join('\n')));
  const query = 'query Q($id: Int!) { row(id: $id) { label } } query Other { hello }';
  const expected = `200 application/json\n${JSON.stringify({ data: { row: { label: 'row 3' } } })}`;
  const params = `query=${encodeURIComponent(query)}&operationName=Q&variables=${encodeURIComponent('{"id":3}')}`;
  assert.is(await serve({ method: 'GET', target: `/graphql?${params}` }), expected);
  assert.is(await serve({ method: 'POST', target: `/graphql?${params}` }), expected);
  assert.is(await serve({ method: 'POST', target: '/graphql', contentType: 'application/json; charset=utf-8', body: JSON.stringify({ query, operationName: 'Q', variables: { id: 3 } }) }), expected);
  assert.is(await serve({ method: 'POST', target: '/graphql', contentType: 'application/graphql', body: '{ row(id: 3) { label } }' }), expected);
  const invalid = await serve({ method: 'POST', target: '/graphql', contentType: 'application/graphql', body: '{ nothing }' });
  assert.equal(JSON.parse(invalid.split('\n')[1]!), { errors: [{ message: 'Cannot query field "nothing" on type "Query".' }] });
});

test('/graphql declines other paths, methods and body types; malformed bodies abort', async () => {
  assert.is(await serve({ method: 'GET', target: '/graphiql' }), 'declined');
  assert.is(await serve({ method: 'PUT', target: '/graphql' }), 'declined');
  assert.is(await serve({ method: 'POST', target: '/graphql', contentType: 'text/plain', body: '{ hello }' }), 'declined');
  const p = await program('graphql-execute', SOURCE);
  const abortOf = (call: HttpCall) => p.abortOf('serve', utf8(JSON.stringify({ contentType: 'application/json', body: '', ...call })));
  assert.match(abortOf({ method: 'POST', target: '/graphql', body: '{"query": 1}' })!, 'query must be a string');
  assert.match(abortOf({ method: 'POST', target: '/graphql', body: '{"variables": {}}' })!, 'the body has no query');
  assert.match(abortOf({ method: 'POST', target: '/graphql', body: '{"query": "{ hello }", "variables": [1]}' })!, 'variables must be an object');
  assert.match(abortOf({ method: 'POST', target: '/graphql', body: '{"query": ' })!, 'invalid JSON');
});

test.run();
