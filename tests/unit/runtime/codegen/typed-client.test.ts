// `tsibase codegen`'s typed clients, compiled with tsc --strict in a project of their own and run:
// of the example service (in TestChain) and of a schema using every kind of type. Their actions
// pack as ServiceCodec packs; their results, events and rows decode to values of the declared
// types (the typed constants below go through tsc, then must equal what the client decodes);
// wrong argument types do not compile.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ServiceCodec, type Action, type ServiceSchema } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { clientProject, type ClientProject } from '../../../lib/typed-client.js';
import { compiledService } from '../../services-wasm/program.js';

const AN_OBJECT = (members: Record<string, unknown>) => ({ Object: members });

/** A schema with every kind of type, named and anonymous, and names TypeScript cannot take as they are. */
const ALL_TYPES = {
  service: 'all-types',
  types: {
    // As builds write them: built-in names defined in the schema itself.
    u8: { Int: { bits: 8, isSigned: false } },
    string: { Custom: { type: { List: 'u8' }, id: 'string' } },
    Point: { Struct: { x: 'i32', y: 'i32' } },
    Shape: { Variant: { circle: AN_OBJECT({ r: 'f64' }), square: 'Point', empty: { Struct: {} } } },
    Pair: { Tuple: ['u16', 'string'] },
    Tree: AN_OBJECT({ value: 'u32', children: { List: 'Tree' } }),
    Nest: { List: 'Nest' },
    'psibase::Renamed': AN_OBJECT({ new: 'u8', 'odd-name': 'bool' }),
    Actions: AN_OBJECT({ x: 'u8' }),
    Everything: AN_OBJECT({
      b: 'bool', u8: 'u8', i8: 'i8', u16: 'u16', i16: 'i16', u32: 'u32', i32: 'i32', u64: 'u64', i64: 'i64',
      i48: { Int: { bits: 48, isSigned: true } }, f32: 'f32', f64: 'f64',
      s: 'string', bytes: 'bytes', hash: 'Checksum256', fixedHex: { Custom: { type: { Array: { type: 'u8', len: 4 } }, id: 'hex' } },
      account: 'AccountNumber', oldAccount: { Custom: { type: 'u64', id: 'AccountNumber' } }, method: 'MethodNumber',
      sec: 'TimePointSec', usec: 'TimePointUSec',
      some: { Option: 'u32' }, none: { Option: 'string' }, list: { List: 'i16' }, array: { Array: { type: 'u16', len: 3 } },
      packed: { FracPack: 'Point' }, packedBytes: { Custom: { type: { FracPack: 'Pair' }, id: 'hex' } },
      point: 'Point', shape: 'Shape', shapes: { List: 'Shape' }, pair: 'Pair', tree: 'Tree', nest: 'Nest',
      map: { Custom: { type: { List: AN_OBJECT({ first: 'string', second: 'u32' }) }, id: 'map' } },
      names: { List: 'AccountNumber' }, other: { Custom: { type: 'u32', id: 'something' } },
      renamed: 'psibase::Renamed', 'odd-name': 'u8',
    }),
  },
  actions: {
    echo: { params: AN_OBJECT({ value: 'Everything' }), result: 'Everything' },
    many: { params: AN_OBJECT({ a: 'u64', new: 'string', b: { Option: 'AccountNumber' } }), result: { List: 'Shape' } },
    nothing: { params: AN_OBJECT({}) },
    renamed: { params: AN_OBJECT({ r: 'psibase::Renamed', c: 'Actions' }), result: 'psibase::Renamed' },
  },
  history: { happened: AN_OBJECT({ who: 'AccountNumber', what: 'Shape' }) },
  ui: { shown: 'Pair' },
  // psibase HEAD's form of an event.
  merkle: { proved: { type: AN_OBJECT({ hash: 'Checksum256' }), access: 'public' } },
  database: {
    service: [{ name: 'points', table: 1, type: 'Point', indexes: [] }],
    subjective: [{ name: null, table: 2, type: 'Tree', indexes: [] }],
  },
};

/** Typed values of the all-types client (checked by tsc) and the actions it makes of them. */
const ALL_TYPES_USAGE = `
import { actions, client, results, type Actions_2, type Everything, type psibase__Renamed, type Shape, type Tree } from './all-types-client.js';

const tree: Tree = { value: 1, children: [{ value: 2, children: [] }] };
export const everything: Everything = {
  b: true, u8: 255, i8: -128, u16: 65535, i16: -32768, u32: 4294967295, i32: -2147483648,
  u64: 18446744073709551615n, i64: -9223372036854775808n, i48: -140737488355328n, f32: 1.5, f64: Math.PI,
  s: 'text ü', bytes: new Uint8Array([1, 2, 3]), hash: new Uint8Array(32).fill(7), fixedHex: new Uint8Array([9, 8, 7, 6]),
  account: 'alice', oldAccount: 'bob', method: 'setnote',
  sec: 1700000000n, usec: 1700000000000000n,
  some: 7, none: null, list: [-1, 0, 1], array: [1, 2, 3],
  packed: { x: -5, y: 5 }, packedBytes: client.codec.types.typeOf('Pair').pack([1, 'a']),
  point: { x: 1, y: 2 }, shape: { circle: { r: 0.5 } }, shapes: [{ square: { x: 3, y: 4 } }, { empty: {} }],
  pair: [9, 'nine'], tree, nest: [[], [[]]],
  map: [{ first: 'k', second: 1 }], names: ['carol', 'dave'], other: 42,
  renamed: { new: 1, 'odd-name': false }, 'odd-name': 3,
};
export const shapes: Shape[] = [{ circle: { r: 2 } }, { square: { x: 1, y: 1 } }];
export const renamed: psibase__Renamed = { new: 2, 'odd-name': true };
export const c: Actions_2 = { x: 1 };

export const made = {
  echo: actions('alice').echo(everything),
  many: actions('bob', 'elsewhere').many(5n, 'text', 'carol'),
  nothing: actions('carol').nothing(),
  renamed: actions('dave').renamed(renamed, c),
};
export { client };

/** Never called: what tsc must refuse. */
export function refused(): void {
  // @ts-expect-error a u64 is a bigint
  actions('alice').many(5, 'text', null);
  // @ts-expect-error an AccountNumber is its name
  actions('alice').many(5n, 'text', 1n);
  // @ts-expect-error the arguments are all required
  actions('alice').many(5n, 'text');
  // @ts-expect-error nothing returns nothing: it has no decoder
  results.nothing(new Uint8Array());
  // @ts-expect-error a variant is one of its alternatives
  const wrong: Shape = { triangle: {} };
  void wrong;
  // @ts-expect-error echo's value decodes as Everything, whose u32 is a number
  const bad: bigint = results.echo(new Uint8Array()).u32;
  void bad;
}
`;

/** The example service in TestChain through its typed client, typed as a service author writes it. */
const EXAMPLE_USAGE = `
import type { TestChain } from 'tsibase/testing';
import { actions, events, results, rows, SERVICE, type Counter, type Events } from './example-client.js';

/** A row of the service's counters table (its schema's database, as the build found the table). */
export function counterRow(bytes: Uint8Array): Counter {
  return rows.counters(bytes);
}

export function exercise(chain: TestChain) {
  const alice = actions('alice');
  const first = chain.run(alice.increment('apples', 5n));
  const second = chain.run(alice.increment('apples', 2n));
  const value: bigint = results.increment(second.retval);
  const event: Events['incremented'] = events.incremented(first.events[0]!.value);
  const owner: string = event.owner;
  const got: bigint | null = results.get(chain.run(actions('bob').get('alice', 'apples')).retval);
  const none: bigint | null = results.get(chain.run(actions('bob').get('bob', 'apples')).retval);
  const top: Counter[] = results.top(chain.run(actions('bob').top(5)).retval);
  return { service: SERVICE, action: alice.increment('pears', 3n), value, event, owner, got, none, top };
}
`;

interface AllTypesUsage {
  everything: Record<string, unknown>;
  shapes: unknown[];
  renamed: unknown;
  made: Record<'echo' | 'many' | 'nothing' | 'renamed', Action>;
  client: {
    results: Record<string, (bytes: Uint8Array) => unknown>;
    events: Record<string, (bytes: Uint8Array) => unknown>;
    rows: Record<string, (bytes: Uint8Array) => unknown>;
  };
}

interface ExampleUsage {
  counterRow(bytes: Uint8Array): unknown;
  exercise(chain: TestChain): { service: string; action: Action; value: bigint; event: unknown; owner: string; got: bigint | null; none: bigint | null; top: unknown[] };
}

interface Ctx { project: ClientProject; compiled: { status: number; output: string }; allSource: string; exampleSchema: ServiceSchema; exampleBinary: Uint8Array }
const test = suite<Ctx>('typed clients');

test.before(async (ctx) => {
  const example = await compiledService('example');
  ctx.exampleSchema = example.schema as ServiceSchema;
  ctx.exampleBinary = example.binary;
  ctx.project = clientProject();
  ctx.allSource = ctx.project.codegen('all-types-client', ALL_TYPES);
  ctx.project.codegen('example-client', example.schema);
  ctx.project.write('all-types-usage', ALL_TYPES_USAGE);
  ctx.project.write('example-usage', EXAMPLE_USAGE);
  ctx.compiled = await ctx.project.compile();
});

test.after((ctx) => ctx.project.remove());

test('the clients and the code using them compile under tsc --strict; wrong types do not', (ctx) => {
  assert.is(ctx.compiled.status, 0, ctx.compiled.output);
  // Every @ts-expect-error above is needed (tsc fails on an unused one), so each is refused.
  assert.is(ctx.compiled.output, '');
});

test('names TypeScript cannot take are declared under others; the file imports only tsibase', (ctx) => {
  assert.match(ctx.allSource, `/** The schema's type "psibase::Renamed". */\nexport interface psibase__Renamed {`);
  assert.match(ctx.allSource, 'export interface Actions_2 {');
  assert.match(ctx.allSource, '"odd-name": boolean;');
  assert.match(ctx.allSource, 'many(a: bigint, _new: string, b: string | null): Action;');
  assert.match(ctx.allSource, 'export type Nest = Nest[];');
  assert.match(ctx.allSource, '  nest: Nest;');
  assert.equal(ctx.allSource.match(/^import .*$/gm), ["import { ServiceClient, type Action, type ClientSchema } from 'tsibase';"]);
});

test('the actions pack their arguments as ServiceCodec does, for the sender and service given', async (ctx) => {
  const usage = await ctx.project.load<AllTypesUsage>('all-types-usage');
  const codec = new ServiceCodec(ALL_TYPES as unknown as ServiceSchema);
  assert.equal(usage.made.echo, codec.action('alice', 'echo', { value: usage.everything }));
  assert.equal(usage.made.many, codec.action('bob', 'many', { a: 5n, new: 'text', b: 'carol' }, 'elsewhere'));
  assert.equal(usage.made.nothing, codec.action('carol', 'nothing', {}));
  assert.equal(usage.made.renamed, codec.action('dave', 'renamed', { r: usage.renamed, c: { x: 1 } }));
});

test('results, events and rows decode to the typed values they were packed from', async (ctx) => {
  const usage = await ctx.project.load<AllTypesUsage>('all-types-usage');
  const codec = new ServiceCodec(ALL_TYPES as unknown as ServiceSchema);
  const pack = (type: string | object, value: unknown) => codec.types.typeOf(type as never).pack(value);
  assert.equal(usage.client.results.echo!(pack('Everything', usage.everything)), usage.everything);
  assert.equal(usage.client.results.many!(pack({ List: 'Shape' }, usage.shapes)), usage.shapes);
  assert.equal(Object.keys(usage.client.results), ['echo', 'many', 'renamed']);
  const record = (type: string, data: unknown, dataType: object | string) =>
    pack({ Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: dataType } } }, { service: 'all-types', type, data });
  const happened = { who: 'erin', what: { square: { x: 1, y: 2 } } };
  assert.equal(usage.client.events.happened!(record('happened', happened, ALL_TYPES.history.happened)), happened);
  assert.equal(usage.client.events.shown!(record('shown', [1, 'one'], 'Pair')), [1, 'one']);
  const proved = { hash: new Uint8Array(32).fill(3) };
  assert.equal(usage.client.events.proved!(record('proved', proved, ALL_TYPES.merkle.proved.type)), proved);
  assert.equal(usage.client.rows.points!(pack('Point', { x: 3, y: -3 })), { x: 3, y: -3 });
  assert.equal(Object.keys(usage.client.rows), ['points', 'subjective.table2']);
});

test('the example client runs the example service in TestChain: values, events, a missing value, a table row', async (ctx) => {
  const usage = await ctx.project.load<ExampleUsage>('example-usage');
  const chain = TestChain.open();
  try {
    chain.deploy('example', ctx.exampleBinary);
    const out = usage.exercise(chain);
    assert.is(out.service, 'example');
    assert.equal(out.action, new ServiceCodec(ctx.exampleSchema).action('alice', 'increment', { name: 'pears', by: 3n }));
    assert.is(out.value, 7n);
    assert.equal(out.event, { owner: 'alice', name: 'apples', value: 5n });
    assert.is(out.got, 7n);
    assert.is(out.none, null);
    assert.equal(out.top, [{ owner: 'alice', name: 'apples', value: 7n }]);
    const row = new ServiceCodec(ctx.exampleSchema).types.typeOf('Counter').pack({ owner: 'bob', name: 'pears', value: 2n });
    assert.equal(usage.counterRow(row), { owner: 'bob', name: 'pears', value: 2n }, 'the table\'s rows decode by their type');
  } finally {
    await chain.close();
  }
});

test.run();
