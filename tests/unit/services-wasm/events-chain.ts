// A test chain for event decoding and event queries: the events service as `make services`
// builds it, and one test service deployed twice (`emitter` and `other`) that emits history, ui
// and merkle events of several shapes, writes raw records, and answers GraphQL with the SDK's
// event decoding field and EventQuery Connections. Every event written is kept here with what
// the test knows about it, and decoded independently by host-api's schema codec.
import * as assert from 'uvu/assert';
import { compileSchema, methodNumberFromName, type AnyType, type Schema } from '../../../host-api/index.js';
import { DbId } from '../../../host-api/abi/databases.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry, compiledService } from './program.js';

const ENTRY = 'tests/unit/services-wasm/programs/emitter.ts';
const SOURCE = `
import * as sdk from "../../../../services-wasm/sdk/index";
import { EventQuery, writeEventDecoding } from "../../../../services-wasm/sdk/events/index";
import { ValueKind } from "../../../../services-wasm/sdk/graphql/ast";

@struct class Point { constructor(public x: i16 = 0, public y: i16 = 0) {} }
@fracpack class Detail { constructor(public label: string = "", public weight: u32 = 0) {} }

class Root extends sdk.GqlObject {
  constructor(private service: Emitter) { super(); }
  typeName(): string { return "Query"; }
  resolve(field: sdk.FieldRequest, exec: sdk.Execution): bool {
    if (field.name == "event") {
      writeEventDecoding<Emitter>(this.service, field, exec);
    } else if (field.name == "events") {
      const where = field.argument("where");
      const given = field.argument("params");
      const params = new Array<string>();
      if (given !== null && given.kind == ValueKind.List) for (let i = 0; i < given.items.length; i++) params.push(given.items[i].text);
      const query = new EventQuery(field.argument("table")!.text)
        .condition(where !== null && where.kind == ValueKind.String ? where.text : "", params)
        .pageBy(field, exec);
      if (!exec.failed) query.writeConnection(exec, "Event");
    } else {
      return false;
    }
    return true;
  }
}

@service("emitter")
class Emitter {
  @action transfer(from: sdk.AccountNumber, to: sdk.AccountNumber, amount: u64, memo: string): u64 { return this.transferred(from, to, amount, memo); }
  @action note(value: i32, ratio: f64, flag: bool, tags: Array<string>, extra: sdk.Option<u32>, point: Point, detail: Detail | null, payload: Uint8Array, at: sdk.TimePointSec, big: i64, hash: sdk.Checksum256): u64 {
    return this.noted(value, ratio, flag, tags, extra, point, detail, payload, at, big, hash);
  }
  @action click(n: u8): u64 { return this.clicked(n); }
  @action seal(hash: sdk.Checksum256): u64 { return this.sealed(hash); }
  @action emitRaw(db: u32, record: Uint8Array): u64 { return sdk.host.putSequential(db, record.dataStart, record.length); }
  @action query(query: string, variables: string): string {
    return sdk.executeQuery(new Root(this), query, null, variables.length > 0 ? sdk.parseJson(variables) : null);
  }

  @event("history") transferred(from: sdk.AccountNumber, to: sdk.AccountNumber, amount: u64, memo: string): u64 {}
  @event("history") noted(value: i32, ratio: f64, flag: bool, tags: Array<string>, extra: sdk.Option<u32>, point: Point, detail: Detail | null, payload: Uint8Array, at: sdk.TimePointSec, big: i64, hash: sdk.Checksum256): u64 {}
  @event("ui") clicked(n: u8): u64 {}
  @event("merkle") sealed(hash: sdk.Checksum256): u64 {}
}
`;

/** The GraphQL schema of the emitter's query root, for graphql-js. */
export const SDL = `
type Query {
  event(db: Float!, id: String!): EventDecoding!
  events(table: String!, where: String, params: [String!], first: Float, last: Float, before: String, after: String): EventConnection
}
type EventDecoding {
  event_db: Float! event_id: String! event_found: Boolean! event_service: String! event_supported_service: Boolean!
  event_type: String! event_unpack_ok: Boolean! event_all_content: String
  from: String to: String amount: String memo: String value: Float ratio: Float flag: Boolean tags: [String]
  extra: Float point: Point detail: Detail payload: String at: String big: String hash: String n: Float nothing: String
}
type Event {
  from: String to: String amount: String memo: String value: Float ratio: Float flag: Boolean tags: [String]
  extra: Float point: Point detail: Detail payload: String at: String big: String hash: String nothing: String
}
type Point { x: Float y: Float }
type Detail { label: String weight: Float }
type EventEdge { node: Event! cursor: String! }
type EventConnection { edges: [EventEdge!]! pageInfo: PageInfo! }
type PageInfo { hasPreviousPage: Boolean! hasNextPage: Boolean! startCursor: String endCursor: String }
`;

interface EmitterSchema {
  types: Schema;
  actions: Record<string, { params: AnyType; result?: AnyType }>;
  history: Record<string, AnyType>;
  ui: Record<string, AnyType>;
  merkle: Record<string, AnyType>;
}

/** An event the chain holds, with what the test knows of it. */
export interface Written {
  db: number;
  id: bigint;
  record: Uint8Array;
  service: string;
  /** Its type's name ('' when the record has none). */
  type: string;
  /** Its fields as host-api decodes them (docs/formats.md §3 JSON), or null when they do not decode. */
  fields: Record<string, unknown> | null;
}

export const KINDS: Record<number, 'history' | 'ui' | 'merkle'> = { [DbId.historyEvent]: 'history', [DbId.uiEvent]: 'ui', [DbId.merkleEvent]: 'merkle' };

export class EventsChain {
  readonly written: Written[] = [];
  private readonly types: ReturnType<typeof compileSchema>;

  private constructor(readonly chain: TestChain, readonly schema: EmitterSchema) {
    // Records of each event type, so host-api decodes whole records as the service does.
    const types: Schema = { ...schema.types };
    for (const kind of ['history', 'ui', 'merkle'] as const) {
      for (const [name, type] of Object.entries(schema[kind])) {
        types[`event_${name}`] = type;
        types[`record_${name}`] = { Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: `event_${name}` } } };
      }
    }
    types.record_bytes = { Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: 'bytes' } } };
    this.types = compileSchema(types);
  }

  static async open(): Promise<EventsChain> {
    const emitter = await compiledEntry(ENTRY, { [ENTRY]: SOURCE });
    const events = await compiledService('events');
    const chain = TestChain.open();
    chain.deploy('emitter', emitter.binary);
    chain.deploy('other', emitter.binary);
    chain.deploy('events', events.binary);
    return new EventsChain(chain, emitter.schema as EmitterSchema);
  }

  /** The event kind declaring `type`, or undefined. */
  kindOf(type: string): string | undefined {
    return (['history', 'ui', 'merkle'] as const).find((k) => Object.hasOwn(this.schema[k], type));
  }

  /** The fields of a record of event type `type`, as host-api decodes them; null when it does not decode. */
  decode(type: string, record: Uint8Array): Record<string, unknown> | null {
    try {
      const value = this.types.typeOf(`record_${type}`).unpack(record);
      const json = this.types.typeOf(`record_${type}`).toJson(value) as { data: Record<string, unknown> | null };
      return json.data ?? {};
    } catch {
      return null;
    }
  }

  /** Runs `action` of `service` as a transaction; keeps the events it wrote. */
  act(service: string, action: string, args: Record<string, unknown>, type: string = ''): bigint[] {
    const rawData = this.types.typeOf(this.schema.actions[action]!.params).pack(args);
    const result = this.chain.run({ sender: service, service, method: action, rawData });
    assert.is(result.error, undefined, `${service}.${action}`);
    return result.events.map((e) => {
      const name = type || (action === 'emitRaw' ? '' : this.eventOf(action));
      this.written.push({ db: e.db, id: e.id, record: e.value, service, type: name, fields: name ? this.decode(name, e.value) : null });
      return e.id;
    });
  }

  private eventOf(action: string): string {
    return { transfer: 'transferred', note: 'noted', click: 'clicked', seal: 'sealed' }[action]!;
  }

  /** A raw record of `service` with an optional type and data bytes, packed by host-api. */
  rawRecord(service: string, type: string | null, data: Uint8Array | null): Uint8Array {
    return this.types.typeOf('record_bytes').pack({ service, type: type === null ? null : methodNumberFromName(type), data });
  }

  /** A record of `type` (a known event type) packed with `fields`. */
  record(service: string, type: string, recordType: string, fields: Record<string, unknown>): Uint8Array {
    return this.types.typeOf(`record_${recordType}`).pack({ service, type: methodNumberFromName(type), data: fields });
  }

  /** Runs a GraphQL query on `service`'s root in RPC mode; the parsed response. */
  query(service: string, query: string): { data?: unknown; errors?: { message: string }[] } {
    const action = this.schema.actions.query!;
    const rawData = this.types.typeOf(action.params).pack({ query, variables: '' });
    const result = this.chain.run({ sender: service, service, method: 'query', rawData }, { mode: 'rpc' });
    assert.is(result.error, undefined, query);
    return JSON.parse(this.types.typeOf(action.result!).unpack(result.retval) as string);
  }

  close(): Promise<void> {
    return this.chain.close();
  }
}
