// The SDK's GraphQL execution (GraphQL spec §6) against graphql-js 16 as the oracle: the same
// schema and data, resolved by hand-written GqlObjects in wasm and by plain resolvers in
// graphql-js; valid queries give the same data, invalid ones give errors and no data in both.
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

test.run();
