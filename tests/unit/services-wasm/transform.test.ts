// The SDK transform: the service schema it derives from AssemblyScript declarations, and the
// errors it reports for declarations it cannot turn into code.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type Schema } from '../../../host-api/index.js';
import { buildScript, WasmApi } from './program.js';

const DIR = 'tests/unit/services-wasm/programs';
const SDK = '../../../../services-wasm/sdk/index';

async function compile(source: string, others: Record<string, string> = {}) {
  const entry = `${DIR}/transform-case.ts`;
  const sources: Record<string, string> = { [entry]: `import * as sdk from "${SDK}";\n${source}` };
  for (const [name, text] of Object.entries(others)) sources[`${DIR}/${name}.ts`] = `import * as sdk from "${SDK}";\n${text}`;
  return (await buildScript()).compileService(entry, sources);
}

async function compileError(source: string, others?: Record<string, string>): Promise<string> {
  try {
    await compile(source, others);
  } catch (err) {
    return (err as Error).message;
  }
  return assert.unreachable('compiled') as never;
}

const SCHEMA_SERVICE = `
type Amount = u64;
@struct class Point { x: i32 = 0; y: i32 = 0; }
@variant class Shape { circle: u32 = 0; polygon: Array<Point> = []; }
@fracpack class Doc {
  id: u64 = 0;
  tags: Array<string> = [];
  shape: Shape | null = null;
  amount: Amount = 0;
  expires: sdk.Option<sdk.TimePointSec> = new sdk.Option<sdk.TimePointSec>();
  hash: sdk.Checksum256 = new sdk.Checksum256();
  next: Doc | null = null;
}
@service("schemas")
class SchemaTest {
  @action store(doc: Doc, flag: bool): void {}
  @action read(id: u64): Doc | null { return null; }
  @event("ui") shown(id: u64): void {}
  @event("merkle") proved(root: sdk.Checksum256): void {}
  @event("history") logged(text: string): u64 {}
  helper(): void {}
}
`;

test('the schema: records by kind, aliases resolved, actions and events by kind', async () => {
  const { schema, module } = await compile(SCHEMA_SERVICE);
  const s = schema as { service: string; types: Schema; actions: unknown; ui: unknown; history: unknown; merkle: unknown };
  assert.is(s.service, 'schemas');
  assert.equal(s.types.Point, { Struct: { x: 'i32', y: 'i32' } });
  assert.equal(s.types.Shape, { Variant: { circle: 'u32', polygon: { List: 'Point' } } });
  assert.equal(s.types.Doc, {
    Object: {
      id: 'u64', tags: { List: 'string' }, shape: { Option: 'Shape' }, amount: 'u64',
      expires: { Option: 'TimePointSec' }, hash: 'Checksum256', next: { Option: 'Doc' },
    },
  });
  assert.equal(s.actions, {
    store: { params: { Object: { doc: 'Doc', flag: 'bool' } } },
    read: { params: { Object: { id: 'u64' } }, result: { Option: 'Doc' } },
  });
  assert.equal(s.ui, { shown: { Object: { id: 'u64' } } });
  assert.equal(s.merkle, { proved: { Object: { root: 'Checksum256' } } });
  assert.equal(s.history, { logged: { Object: { text: 'string' } } });
  // The schema stands alone: every name it uses is defined in it.
  const types = compileSchema(s.types);
  for (const name of Object.keys(s.types)) types.type(name);
  assert.equal(WasmApi.Module.exports(module).map((e) => e.name).sort(), ['called', 'memory', 'start']);
});

test('a program without a service has no schema and no entry points', async () => {
  const { schema, module } = await compile('@fracpack class A { a: u8 = 0; }\nexport function f(): u32 { return sdk.pack(new A()).length; }');
  assert.is(schema, null);
  assert.equal(WasmApi.Module.exports(module).map((e) => e.name).sort(), ['f', 'memory']);
});

const ERRORS: [string, string, string, Record<string, string>?][] = [
  ['readonly record fields', '@fracpack class A { readonly a: u8 = 0; }', 'A.a: a record field cannot be readonly'],
  ['records that extend a class', 'class B {}\n@fracpack class A extends B { a: u8 = 0; }', 'A: a record class cannot extend another class'],
  ['two record decorators', '@fracpack @struct class A { a: u8 = 0; }', 'takes only one of @fracpack, @struct, @variant'],
  ['a variant with its own tag', '@variant class V { tag: u8 = 0; a: u8 = 0; }', "gets its own 'tag' field"],
  ['an action outside a service', 'class S { @action a(): void {} }', 'S.a: @action works only in a @service class'],
  ['an unknown event kind', '@service("s") class S { @event("audit") e(): void {} }', 'event kind'],
  ['an event with a body', '@service("s") class S { @event("ui") e(): void { sdk.abort("x"); } }', 'leave it empty'],
  ['an action parameter with a default', '@service("s") class S { @action a(x: u32 = 1): void {} }', 'no default value'],
  ['an invalid service account', '@service("Bad_Name") class S {}', 'Bad_Name'],
  ['two services in the entry file', '@service("a") class A {}\n@service("b") class B {}', 'at most one @service'],
  ['a type without an encoding', '@service("s") class S { @action a(x: usize): void {} }', 'type usize has no fracpack encoding'],
  ['a generic type', '@service("s") class S { @action a(x: Map<string, u32>): void {} }', 'has no schema (generic)'],
  ['one record name in two files', 'import "./other";\n@fracpack class A { a: u8 = 0; }', 'record class A is also declared in', { other: '@fracpack export class A { b: u8 = 0; }' }],
];

for (const [what, source, message, others] of ERRORS) {
  test(`reports ${what}`, async () => {
    const error = await compileError(source, others);
    assert.ok(error.includes(message), error);
    assert.ok(error.includes(`${DIR}/`), `no location in: ${error}`);
  });
}

test.run();
