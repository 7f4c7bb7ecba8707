// The runtime of the typed clients `tsibase codegen` writes (docs/codegen.md): one ServiceClient
// per service, typed by the interfaces the generated file declares from the same schema. Actions
// take their arguments in order and come back as Actions; results, events and table rows are
// decoded with AccountNumber and MethodNumber values as names.
import { TsibaseError } from '../errors.js';
import { BUILTIN_TYPES, kindOf, type AnyType, type Schema } from '../fracpack/schema.js';
import type { Action } from '../types/index.js';
import { ServiceCodec, type ServiceSchema } from './service-codec.js';

/** A table as psibase HEAD's schema lists it under `database` (docs/formats.md §2). */
export interface SchemaTable {
  readonly name?: string | null;
  readonly table: number;
  readonly type: AnyType;
}

/** A service schema with the tables of its databases (`database`: database name -> tables). */
export interface ClientSchema extends ServiceSchema {
  database?: Record<string, readonly SchemaTable[]> | null;
}

/** A decoder per name: bytes to the typed value. */
export type Decoders<T> = { readonly [K in keyof T]: (bytes: Uint8Array) => T[K] };

/** The table name a client gives a table: its own name, else `table<n>`; outside the `service` database, prefixed with the database's. */
export function tableKey(database: string, table: SchemaTable): string {
  const name = table.name ?? `table${table.table}`;
  return database === 'service' ? name : `${database}.${name}`;
}

/** The tables of a schema's databases by their client names. */
export function schemaTables(schema: ClientSchema): Map<string, AnyType> {
  const tables = new Map<string, AnyType>();
  for (const [database, list] of Object.entries(schema.database ?? {})) {
    for (const table of list) tables.set(tableKey(database, table), table.type);
  }
  return tables;
}

/** The members of a record type (an Object or Struct, directly or by name), in order; undefined for any other type. */
export function recordMembers(types: Schema, type: AnyType): [string, AnyType][] | undefined {
  const seen = new Set<string>();
  while (typeof type === 'string') {
    if (seen.has(type)) return undefined;
    seen.add(type);
    const definition = Object.hasOwn(types, type) ? types[type] : Object.hasOwn(BUILTIN_TYPES, type) ? BUILTIN_TYPES[type] : undefined;
    if (definition === undefined) return undefined;
    type = definition;
  }
  const [kind, body] = kindOf(type);
  return kind === 'Object' || kind === 'Struct' ? Object.entries(body as Record<string, AnyType>) : undefined;
}

/**
 * A service's typed client. `A` has one method per action (its arguments in order, returning an
 * Action), `R` each action's return value, `E` each event's data, `T` each table's row: the
 * generated file declares them from the schema this client packs with, so the values this client
 * makes are of those types.
 */
export class ServiceClient<A, R, E, T> {
  readonly codec: ServiceCodec;
  readonly results: Decoders<R>;
  readonly events: Decoders<E>;
  readonly rows: Decoders<T>;
  private readonly params: Map<string, string[]>;

  constructor(readonly schema: ClientSchema) {
    this.codec = new ServiceCodec(schema, { names: 'strings' });
    this.params = new Map(Object.entries(schema.actions).map(([name, { params }]) => {
      const members = recordMembers(schema.types, params);
      if (!members) throw new TsibaseError('SERVICE_BAD_PARAMS', `${schema.service}::${name}: its params must be an Object or Struct type`);
      return [name, members.map(([member]) => member)];
    }));
    const decoders = (names: Iterable<string>, decode: (name: string, bytes: Uint8Array) => unknown) =>
      Object.freeze(Object.fromEntries([...names].map((name) => [name, (bytes: Uint8Array) => decode(name, bytes)])));
    const returning = Object.entries(schema.actions).filter(([, action]) => action.result != null).map(([name]) => name);
    const tables = schemaTables(schema);
    // The one place the generated types meet the values: they describe this same schema.
    this.results = decoders(returning, (name, bytes) => this.codec.result(name, bytes)) as Decoders<R>;
    this.events = decoders(this.codec.eventNames(), (name, bytes) => this.codec.event(name, bytes)) as Decoders<E>;
    this.rows = decoders(tables.keys(), (name, bytes) => this.codec.value(tables.get(name)!, bytes)) as Decoders<T>;
  }

  /** The actions of `service` (by default the schema's) sent by `sender`, each packing its arguments in order. */
  actions(sender: string, service: string = this.schema.service): A {
    const actions = [...this.params].map(([name, members]) => [name, (...args: unknown[]): Action =>
      this.codec.action(sender, name, Object.fromEntries(members.map((member, i) => [member, args[i]])), service)]);
    return Object.freeze(Object.fromEntries(actions)) as A;
  }
}
