// The test service of the GraphQL-from-classes tests (graphql-schema, graphql-introspection): a
// @query root over a table of Items (every kind of field rule 4 maps), a second root serving a
// whole Table, compiled by the transform and deployed on an in-process chain. Its `query` action
// executes a query as /graphql would serve it (introspection included).
import * as assert from 'uvu/assert';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry } from './program.js';
import { ServiceCodec, type ServiceSchema } from '../../../host-api/client/service-codec.js';

const ENTRY = 'tests/unit/services-wasm/programs/graphql-schema.ts';
const SOURCE = `
import * as sdk from "../../../../services-wasm/sdk/index";
import { IntrospectedQuery } from "../../../../services-wasm/sdk/graphql/introspection";

@struct class Point { constructor(public x: i32 = 0, public y: i32 = 0) {} }

@fracpack class Item {
  constructor(
    public id: u64 = 0,
    public label: string = "",
    public owner: sdk.AccountNumber = 0,
    public small: u8 = 0,
    public signed: i32 = 0,
    public ratio: f64 = 0,
    public big: i64 = 0,
    public flag: bool = false,
    public data: Uint8Array = new Uint8Array(0),
    public tags: Array<string> = [],
    public at: Point = new Point(),
    public note: string | null = null,
    public maybe: sdk.Option<u32> = new sdk.Option<u32>(),
    public friends: Array<sdk.Option<sdk.AccountNumber>> = [],
  ) {}

  @query scaled(by: u32, offset: sdk.Option<i32>): f64 { return this.ratio * <f64>by + <f64>offset.getOr(0); }
  @query quotient(by: f64): f64 { return this.ratio / by; }
  @query get double(): u64 { return this.id * 2; }
  /** Not a GraphQL field: no @query. */
  secret(): string { return "hidden"; }
}

const items = new sdk.Table<Item, u64>(1, (i: Item): u64 => i.id);
const byLabel = items.index<string>((i: Item): string => i.label);
const byOwner = items.index<sdk.AccountNumber>((i: Item): sdk.AccountNumber => i.owner);

@query class Root {
  get items(): sdk.Index<Item, u64> { return items.primary; }
  readonly byLabel: sdk.Index<Item, string> = byLabel;
  byOwner(): sdk.Index<Item, sdk.AccountNumber> { return byOwner; }
  item(id: u64): Item | null { return items.get(id); }
  labelled(label: string, suffix: string | null): Array<string> {
    const found = byLabel.get(label);
    return found === null ? [] : [found.label + (suffix !== null ? suffix : "")];
  }
  private hidden(): u32 { return 1; }
}

/** A second root reaching its row type through a connection only (a whole Table). */
@fracpack class Tag { constructor(public name: string = "", public weight: u16 = 0) {} }
const tags = new sdk.Table<Tag, u16>(2, (t: Tag): u16 => t.weight);
@query class TagsOnly { readonly tags: sdk.Table<Tag, u16> = tags; }

@service("gqlschema")
class GqlSchema {
  @action add(rows: Array<Item>): void { for (let i = 0; i < rows.length; i++) items.put(rows[i]); }
  @action query(query: string, variables: string): string {
    const root = new IntrospectedQuery(new Root().graphqlRoot(), Root.SDL);
    return sdk.executeQuery(root, query, null, variables.length > 0 ? sdk.parseJson(variables) : null);
  }
  @action sdl(): string { return Root.SDL; }
  @action tagsSdl(): string { return TagsOnly.SDL; }
}
`;

export type Response = { data?: unknown; errors?: unknown[] };

export interface SchemaService {
  readonly chain: TestChain;
  /** Runs action `method` of the service (as an RPC) and returns its unpacked result. */
  call(method: string, args: unknown): unknown;
  /** The service's answer to `query`, parsed. */
  query(query: string, variables?: Record<string, unknown>): Response;
}

/** Compiles the service, deploys it on a new chain and adds `rows` (Items) to its table. */
export async function openSchemaService(rows: unknown[]): Promise<SchemaService> {
  const compiled = await compiledEntry(ENTRY, { [ENTRY]: SOURCE });
  const codec = new ServiceCodec(compiled.schema as ServiceSchema);
  const chain = TestChain.open();
  chain.deploy('gqlschema', compiled.binary);
  const add = chain.run({ sender: 'gqlschema', service: 'gqlschema', method: 'add', rawData: codec.args('add', { rows }) });
  assert.is(add.error, undefined);
  const call = (method: string, args: unknown): unknown => {
    const result = chain.run({ sender: 'gqlschema', service: 'gqlschema', method, rawData: codec.args(method, args) }, { mode: 'rpc' });
    assert.is(result.error, undefined);
    return codec.result(method, result.retval);
  };
  const query = (text: string, variables?: Record<string, unknown>): Response =>
    JSON.parse(call('query', { query: text, variables: variables ? JSON.stringify(variables) : '' }) as string) as Response;
  return { chain, call, query };
}
