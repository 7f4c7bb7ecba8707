// GraphQL introspection (spec §4) as a client starts: graphql-js's introspection query (each
// variant of its options) against the generated test root and the real tokens service answers
// exactly what graphql-js answers on `buildSchema` of the SDL the service serves (types in the
// same order), `buildClientSchema` of the answer prints as that SDL does, and hand-written
// introspection queries (aliases, fragments, variables, __type by name, unknown names, what a
// validator refuses) agree with graphql-js too.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, graphqlSync, introspectionFromSchema, printSchema,
  type IntrospectionOptions, type IntrospectionQuery,
} from 'graphql';
import { openSchemaService, type Response } from './graphql-schema-service.js';
import { openTokensChain } from './tokens-chain.js';

/** A served schema: its SDL and how a query reaches it. */
interface Served {
  sdl: string;
  query(query: string, variables?: Record<string, unknown>): Response;
  close(): Promise<void>;
}

/** The option sets of graphql-js 16's introspection query a client may send. */
const VARIANTS: IntrospectionOptions[] = [
  {},
  { descriptions: false },
  { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true },
  { specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, experimentalDirectiveDeprecation: true, oneOf: true, typeDepth: 3 },
];

/** What graphql-js answers `query` with on `buildSchema(sdl)`, as JSON. */
function reference(sdl: string, query: string, variables?: Record<string, unknown>): Response {
  return JSON.parse(JSON.stringify(graphqlSync({ schema: buildSchema(sdl), source: query, variableValues: variables }))) as Response;
}

/** Our answer equals graphql-js's; a query graphql-js refuses gets errors and no data from us too. */
function agree(served: Served, query: string, variables?: Record<string, unknown>, sdl = served.sdl): Response {
  const mine = served.query(query, variables);
  const theirs = reference(sdl, query, variables);
  if (theirs.errors && !('data' in theirs)) {
    assert.ok(mine.errors && mine.errors.length > 0 && !('data' in mine), `${query}: graphql-js refuses (${JSON.stringify(theirs.errors)}), ours ${JSON.stringify(mine)}`);
  } else {
    assert.equal(mine, theirs, query);
  }
  return mine;
}

const TYPE_QUERIES: [string, Record<string, unknown>?][] = [
  ['{ __type(name: "Query") { name kind fields { name type { kind name ofType { kind name ofType { kind name } } } } } }'],
  ['{ missing: __type(name: "NoSuchType") { name } int: __type(name: "Int") { name } string: __type(name: "String") { kind description } }'],
  ['{ t: __type(name: "__Type") { ...Named fields { n: name args { name defaultValue type { name } } } } k: __type(name: "__TypeKind") { enumValues { name description isDeprecated } } } fragment Named on __Type { name kind __typename }'],
  ['query Q($name: String!, $all: Boolean) { __type(name: $name) { name fields(includeDeprecated: $all) { name args { name } isDeprecated deprecationReason } interfaces { name } possibleTypes { name } enumValues { name } inputFields { name } specifiedByURL } }', { name: 'PageInfo', all: true }],
  ['{ __schema { queryType { name ... on __Type { kind } } mutationType { name } subscriptionType { name } directives { name locations isRepeatable args { name type { kind ofType { name } } defaultValue } } } __typename }'],
  ['{ __schema { types { name kind } } }'],
  ['{ __type(name: "Boolean") { name fields { name } enumValues { name } ofType { name } } }'],
  // What a validator refuses.
  ['{ __type { name } }'],
  ['{ __type(name: 3) { name } }'],
  ['{ __schema { nope } }'],
  ['{ __schema }'],
  ['{ __schema { queryType { kind { name } } } }'],
  ['{ __schema(x: 1) { description } }'],
  ['{ __schema { directives(includeDeprecated: "yes") { name } } }'],
  ['{ __type(name: "Query") { fields(includeDeprecated: null) { name } } }'],
];

/** The introspection tests of one served schema; `named` is one of its object types. */
function introspectionSuite(title: string, open: () => Promise<Served>, named: string): void {
  const test = suite<{ served: Served }>(title);
  test.before(async (ctx) => {
    ctx.served = await open();
  });
  test.after(async (ctx) => {
    await ctx.served?.close();
  });

  test('graphql-js introspection query, every variant, answered as graphql-js answers it', ({ served }) => {
    for (const options of VARIANTS) {
      const r = agree(served, getIntrospectionQuery(options));
      assert.ok(!r.errors && (r.data as IntrospectionQuery).__schema.types.length > 10, JSON.stringify(options));
    }
  });

  test('introspectionFromSchema(buildSchema(sdl)) is what the service answers, types in the same order', ({ served }) => {
    const expected = introspectionFromSchema(buildSchema(served.sdl));
    const query = getIntrospectionQuery({
      specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, experimentalDirectiveDeprecation: true, oneOf: true,
    });
    const r = served.query(query);
    assert.equal(r.errors, undefined);
    assert.equal(r.data, JSON.parse(JSON.stringify(expected)));
    assert.equal((r.data as IntrospectionQuery).__schema.types.map((t) => t.name), expected.__schema.types.map((t) => t.name));
  });

  test('buildClientSchema of the answer prints as the served SDL', ({ served }) => {
    const r = served.query(getIntrospectionQuery());
    const client = buildClientSchema(r.data as IntrospectionQuery);
    assert.is(printSchema(client), printSchema(buildSchema(served.sdl)));
    assert.ok(client.getType(named), named);
  });

  test('hand-written introspection: aliases, fragments, variables, __type by name, unknown names', ({ served }) => {
    for (const [query, variables] of TYPE_QUERIES) agree(served, query, variables);
    const r = agree(served, `{ t: __type(name: "${named}") { name kind fields { name type { kind ofType { name } } } } none: __type(name: "Nope") { name } }`);
    const data = r.data as { t: { name: string; fields: unknown[] }; none: null };
    assert.is(data.t.name, named);
    assert.ok(data.t.fields.length > 0);
    assert.is(data.none, null);
  });

  test('introspection next to ordinary fields, four full introspections in one request', ({ served }) => {
    agree(served, '{ __typename __type(name: "PageInfo") { fields { name } } }');
    // The introspection query's selection four times over, under aliases.
    const full = getIntrospectionQuery();
    const fragments = full.indexOf('fragment FullType');
    const selection = full.slice(full.indexOf('__schema'), full.lastIndexOf('}', fragments));
    const four = `query Four { ${['a', 'b', 'c', 'd'].map((alias) => `${alias}: ${selection}`).join('\n')} }\n${full.slice(fragments)}`;
    const r = served.query(four);
    assert.equal(r.errors, undefined);
    const data = r.data as Record<string, unknown>;
    assert.equal(data.d, data.a);
  });

  test('the comparison fails when the SDL differs', ({ served }) => {
    const changed = served.sdl.replace('type PageInfo {', 'type PageInfo {\n  extra: Boolean');
    assert.not.equal(changed, served.sdl);
    let failed = false;
    try {
      agree(served, getIntrospectionQuery(), undefined, changed);
    } catch {
      failed = true;
    }
    assert.ok(failed, 'an SDL with one more field must fail the comparison');
  });

  test.run();
}

introspectionSuite('introspection of the generated test root', async () => {
  const service = await openSchemaService([]);
  return {
    sdl: service.call('sdl', {}) as string,
    query: service.query,
    close: () => service.chain.close(),
  };
}, 'Item');

introspectionSuite('introspection of the tokens service (merged roots, over its /graphql)', async () => {
  const { chain, serve } = await openTokensChain([]);
  const body = (reply: { status: number; body: Uint8Array }) => {
    assert.is(reply.status, 200);
    return new TextDecoder().decode(reply.body);
  };
  return {
    sdl: body(serve('GET', '/graphql')),
    query: (query, variables) => JSON.parse(body(serve('POST', '/graphql', 'application/json', JSON.stringify({ query, variables })))) as Response,
    close: () => chain.close(),
  };
}, 'Balance');
