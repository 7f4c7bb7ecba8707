// The psibase service schema (docs/formats.md §2 types): AssemblyScript type annotations mapped to
// schema types, and the JSON document the node reads from the `service-schema` custom section.

import { BUILTIN_TYPES } from './host-api.mjs';
import { isNamedType, simpleTypeName, sourceError, typeText } from './ast.mjs';

// AssemblyScript names that denote a built-in schema type (the SDK's aliases included).
export const BUILTIN_NAMES = {
  bool: 'bool', u8: 'u8', u16: 'u16', u32: 'u32', u64: 'u64', i8: 'i8', i16: 'i16', i32: 'i32', i64: 'i64',
  f32: 'f32', f64: 'f64', string: 'string', String: 'string', Uint8Array: 'bytes',
  AccountNumber: 'AccountNumber', MethodNumber: 'MethodNumber', TimePointSec: 'TimePointSec',
  TimePointUSec: 'TimePointUSec', Checksum256: 'Checksum256',
};

const RECORD_KINDS = { OBJECT: 'Object', STRUCT: 'Struct', VARIANT: 'Variant' };

export class SchemaBuilder {
  /** `records`: name -> Record; `aliases`: name -> TypeNode of `type name = ...` declarations. */
  constructor(records, aliases) {
    this.records = records;
    this.aliases = aliases;
    this.types = {};
  }

  /** The schema type of a type annotation; named types it uses are added to `types`. */
  type(typeNode) {
    if (!isNamedType(typeNode)) throw sourceError(typeNode, `type ${typeText(typeNode)} has no fracpack encoding`);
    const t = this.namedType(typeNode);
    return typeNode.isNullable ? { Option: t } : t;
  }

  namedType(typeNode) {
    const name = simpleTypeName(typeNode);
    const args = typeNode.typeArguments ?? [];
    if (name === 'Array' && args.length === 1) return { List: this.type(args[0]) };
    if (name === 'Option' && args.length === 1) return { Option: this.type(args[0]) };
    // A Packed<T> keeps a record's encoding beside its value: on the wire it is the record itself.
    if (name === 'Packed' && args.length === 1) return this.type(args[0]);
    if (args.length > 0) throw sourceError(typeNode, `type ${typeText(typeNode)} has no schema (generic)`);
    if (Object.hasOwn(BUILTIN_NAMES, name)) return this.builtin(BUILTIN_NAMES[name]);
    const record = this.records.get(name);
    if (record) return this.record(record);
    const alias = this.aliases.get(name);
    if (alias) return this.type(alias);
    throw sourceError(typeNode, `type ${name} has no fracpack encoding (not a record class or a built-in type)`);
  }

  /** A built-in name, with its definition (and those it refers to) so the schema stands alone. */
  builtin(name) {
    if (!Object.hasOwn(this.types, name)) {
      this.types[name] = BUILTIN_TYPES[name];
      this.builtinReferences(BUILTIN_TYPES[name]);
    }
    return name;
  }

  builtinReferences(type) {
    if (typeof type === 'string') {
      this.builtin(type);
      return;
    }
    const [kind, body] = Object.entries(type)[0];
    if (kind === 'Custom' || kind === 'Array') this.builtinReferences(body.type);
    else if (kind === 'List' || kind === 'Option' || kind === 'FracPack') this.builtinReferences(body);
    else if (kind === 'Struct' || kind === 'Object') Object.values(body).forEach((member) => this.builtinReferences(member));
  }

  record(record) {
    if (!Object.hasOwn(this.types, record.name)) {
      if (record.classDecl.typeParameters?.length) throw sourceError(record.classDecl, `${record.name}: a generic class has no schema`);
      this.types[record.name] = null; // reserved first, so recursive types terminate
      this.types[record.name] = { [RECORD_KINDS[record.kind]]: this.members(record.members) };
    }
    return record.name;
  }

  /** `{name: type}` for a member list (record fields or action parameters). */
  members(members) {
    return Object.fromEntries(members.map((m) => [m.name, this.type(m.type)]));
  }
}

/**
 * The schema of a service: `{service, types, actions: {name: {params, result?}}, ui, history,
 * merkle, database?}` with params and events as Object types of their arguments, and its tables
 * (tables.mjs) under `database`.
 */
export function serviceSchema(service, records, aliases, tables = []) {
  const builder = new SchemaBuilder(records, aliases);
  const actions = {};
  for (const action of service.actions) {
    const entry = { params: { Object: builder.members(action.params) } };
    if (action.result) entry.result = builder.type(action.result);
    actions[action.name] = entry;
  }
  const events = { ui: {}, history: {}, merkle: {} };
  for (const event of service.events) events[event.kind][event.name] = { Object: builder.members(event.params) };
  const schema = { service: service.account, types: builder.types, actions, ...events };
  // Only tables whose rows are records: their type is what a client decodes.
  const own = tables.filter((t) => records.has(t.rowName));
  if (own.length) {
    schema.database = {};
    for (const t of own) (schema.database[t.db] ??= []).push({ name: t.name, table: t.table, type: builder.type(t.rowType), indexes: [] });
  }
  return schema;
}
