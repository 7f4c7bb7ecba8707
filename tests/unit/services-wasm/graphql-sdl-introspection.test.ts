// Introspection of SDL the transform does not generate but a hand-written root may serve:
// descriptions (strings and block strings), enums, custom scalars with @specifiedBy, default
// values of every kind, @deprecated fields, arguments and enum values (includeDeprecated), and
// directive definitions: the SDK answers graphql-js's introspection queries as graphql-js does on
// buildSchema of the same SDL. An SDL it cannot serve aborts with a `graphql schema:` message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, getIntrospectionQuery, graphqlSync } from 'graphql';
import { program, utf8, type Program } from './program.js';

const SOURCE = `
import { IntrospectedQuery } from "../../../../services-wasm/sdk/graphql/introspection";

/** A root with no fields of its own: only introspection answers. */
class Empty extends sdk.GqlObject {
  typeName(): string { return "Query"; }
  resolve(field: sdk.FieldRequest, exec: sdk.Execution): bool { return false; }
}

/** Input: the SDL, a NUL, the query; output: the GraphQL response. */
export function introspect(): void {
  const text = String.UTF8.decodeUnsafe(input.dataStart, input.length);
  const split = text.indexOf(String.fromCharCode(0));
  const root = new IntrospectedQuery(new Empty(), text.substring(0, split));
  output = Uint8Array.wrap(String.UTF8.encode(sdk.executeQuery(root, text.substring(split + 1))));
}
`;

const SDL = `
"""
The root.

  Indented, with "quotes".
"""
type Query {
  "An old field." old(
    "How far." by: Float = 1.50 @deprecated(reason: "use \\"new\\"")
    color: Color = RED
    list: [Int!] = [1, 20]
    text: String = "a\\u0001b\\\\"
    when: Date
  ): Color @deprecated
  new(id: ID!): Thing
  gone: String @deprecated(reason: "gone")
}

enum Color { RED "Green." GREEN @deprecated(reason: "no more") BLUE }

"A date." scalar Date @specifiedBy(url: "https://example.com/date")

type Thing { date: Date when: [Date!]! at: [[Float]] }

"Cache it." directive @cached("Seconds." ttl: Int = 60) repeatable on FIELD | QUERY
`;

let gql: Program;

function introspect(sdl: string, query: string): unknown {
  return JSON.parse(new TextDecoder().decode(gql.run('introspect', utf8(`${sdl}\0${query}`))));
}

function agree(sdl: string, query: string): void {
  const theirs = JSON.parse(JSON.stringify(graphqlSync({ schema: buildSchema(sdl), source: query })));
  assert.equal(introspect(sdl, query), theirs, query);
}

test.before(async () => {
  gql = await program('graphql-sdl-introspection', SOURCE);
});

test('descriptions, enums, custom scalars, defaults, deprecations, directives: as graphql-js answers', () => {
  agree(SDL, getIntrospectionQuery());
  agree(SDL, getIntrospectionQuery({ specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }));
  agree(SDL, '{ __type(name: "Query") { fields { name args { name } } all: fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
  agree(SDL, '{ __type(name: "Query") { fields(includeDeprecated: true) { name args { name } all: args(includeDeprecated: true) { name defaultValue deprecationReason } } } }');
  agree(SDL, '{ __type(name: "Color") { kind enumValues { name } all: enumValues(includeDeprecated: true) { name description isDeprecated } fields { name } } }');
  agree(SDL, '{ __type(name: "Date") { kind specifiedByURL description } d: __type(name: "Thing") { fields { type { kind ofType { kind ofType { kind ofType { name } } } } } } }');
});

test('an SDL that cannot be served aborts with a graphql schema: message', () => {
  const refused: [string, string][] = [
    ['interface Node { id: ID }\ntype Query { a: Int }', 'graphql schema: the service\'s SDL does not parse: Unsupported definition "interface"'],
    ['type Query { a: Missing }', 'graphql schema: unknown type Missing (in Query.a)'],
    ['type Thing { a: Int }', 'graphql schema: the SDL defines no object type Query'],
    ['type Query { a: Int }\ntype Query { b: Int }', 'graphql schema: type Query is defined twice or is built in'],
    ['type Query { a: Int @cached }', 'graphql schema: the service\'s SDL does not parse: Directive "@cached" is not supported here. (in type Query)'],
    ['type Query { a(: Int }', 'graphql schema: the service\'s SDL does not parse: Expected Name, found ":". (in type Query)'],
    ['directive @d on NOWHERE\ntype Query { a: Int }', 'graphql schema: @d: unknown directive location NOWHERE'],
  ];
  for (const [sdl, message] of refused) {
    const aborted = gql.abortOf('introspect', utf8(`${sdl}\0{ __schema { description } }`));
    assert.ok(aborted?.startsWith(message), `${sdl}: ${aborted}`);
  }
  // A query that does not introspect never parses the SDL.
  assert.equal(introspect('not SDL', '{ __typename }'), { data: { __typename: 'Query' } });
});

test.run();
