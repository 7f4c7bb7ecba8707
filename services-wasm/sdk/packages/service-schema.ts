// psibase's ServiceSchema as packed records (what packages::setSchema takes and getSchema returns),
// and its JSON as psibase writes it (what packages answers at /schema): docs/formats.md §2 for the
// type language. Maps are packed as lists of {first, second}; a type's members as lists of
// {name, type}; a type name is the untagged last alternative of AnyType.

import { AccountNumber } from "../names/types";
import { accountName } from "../names/account";
import { Option } from "../fracpack/option";
import { jsonString } from "../json/encode";

@fracpack
export class SchemaMember {
  constructor(public name: string = "", public type: AnyType = new AnyType()) {}
}

@fracpack
export class IntType {
  constructor(public bits: u32 = 0, public isSigned: bool = false) {}
}

@fracpack
export class FloatType {
  constructor(public exp: u32 = 0, public mantissa: u32 = 0) {}
}

@fracpack
export class ArrayType {
  type!: AnyType;
  len: u64 = 0;
}

@fracpack
export class CustomType {
  type!: AnyType;
  id: string = "";
}

/** psio's AnyType: a type, or (the last alternative) the name of one. */
@variant
export class AnyType {
  Struct: Array<SchemaMember> = [];
  Object: Array<SchemaMember> = [];
  Array!: ArrayType;
  List!: AnyType;
  Option!: AnyType;
  Variant: Array<SchemaMember> = [];
  Tuple: Array<AnyType> = [];
  Int!: IntType;
  Float!: FloatType;
  FracPack!: AnyType;
  Custom!: CustomType;
  Type: string = "";
}

@fracpack
export class NamedType {
  first: string = "";
  second!: AnyType;
}

@fracpack
export class FunctionType {
  params!: AnyType;
  result: Option<AnyType> = new Option<AnyType>();
}

@fracpack
export class NamedFunction {
  first: string = "";
  second!: FunctionType;
}

@fracpack
export class EventType {
  type!: AnyType;
  access: string = "";
}

@fracpack
export class NamedEvent {
  first: string = "";
  second!: EventType;
}

@fracpack
export class FieldId {
  path: Array<u32> = [];
  transform: Option<string> = new Option<string>();
  type: Option<AnyType> = new Option<AnyType>();
}

@fracpack
export class TableInfo {
  name: Option<string> = new Option<string>();
  table: u16 = 0;
  type!: AnyType;
  indexes: Array<Array<FieldId>> = [];
}

@fracpack
export class NamedTables {
  first: string = "";
  second: Array<TableInfo> = [];
}

@fracpack
export class ServiceSchema {
  service: AccountNumber = 0;
  types: Array<NamedType> = [];
  actions: Array<NamedFunction> = [];
  history: Array<NamedEvent> = [];
  merkle: Array<NamedEvent> = [];
  database: Option<Array<NamedTables>> = new Option<Array<NamedTables>>();
}

function membersJson(members: Array<SchemaMember>): string {
  const parts = new Array<string>();
  for (let i = 0; i < members.length; i++) parts.push(jsonString(members[i].name) + ":" + anyTypeJson(members[i].type));
  return "{" + parts.join(",") + "}";
}

function tagged(kind: string, body: string): string {
  return "{" + jsonString(kind) + ":" + body + "}";
}

/** A type as psibase writes it: its name as a string, or `{Kind: body}`. */
export function anyTypeJson(t: AnyType): string {
  switch (t.tag) {
    case 0: return tagged("Struct", membersJson(t.Struct));
    case 1: return tagged("Object", membersJson(t.Object));
    case 2: return tagged("Array", "{\"type\":" + anyTypeJson(t.Array.type) + ",\"len\":" + jsonString(t.Array.len.toString()) + "}");
    case 3: return tagged("List", anyTypeJson(t.List));
    case 4: return tagged("Option", anyTypeJson(t.Option));
    case 5: return tagged("Variant", membersJson(t.Variant));
    case 6: {
      const parts = new Array<string>();
      for (let i = 0; i < t.Tuple.length; i++) parts.push(anyTypeJson(t.Tuple[i]));
      return tagged("Tuple", "[" + parts.join(",") + "]");
    }
    case 7: return tagged("Int", "{\"bits\":" + t.Int.bits.toString() + ",\"isSigned\":" + (t.Int.isSigned ? "true" : "false") + "}");
    case 8: return tagged("Float", "{\"exp\":" + t.Float.exp.toString() + ",\"mantissa\":" + t.Float.mantissa.toString() + "}");
    case 9: return tagged("FracPack", anyTypeJson(t.FracPack));
    case 10: return tagged("Custom", "{\"type\":" + anyTypeJson(t.Custom.type) + ",\"id\":" + jsonString(t.Custom.id) + "}");
    default: return jsonString(t.Type);
  }
}

function optionJson<T>(value: Option<T>, json: (v: T) => string): string {
  return value.hasValue ? json(value.value) : "null";
}

function stringJson(s: string): string {
  return jsonString(s);
}

function fieldIdJson(f: FieldId): string {
  const path = new Array<string>();
  for (let i = 0; i < f.path.length; i++) path.push(f.path[i].toString());
  return "{\"path\":[" + path.join(",") + "],\"transform\":" + optionJson<string>(f.transform, stringJson) + ",\"type\":" + optionJson<AnyType>(f.type, anyTypeJson) + "}";
}

function tableJson(t: TableInfo): string {
  const indexes = new Array<string>();
  for (let i = 0; i < t.indexes.length; i++) {
    const fields = new Array<string>();
    for (let j = 0; j < t.indexes[i].length; j++) fields.push(fieldIdJson(t.indexes[i][j]));
    indexes.push("[" + fields.join(",") + "]");
  }
  return "{\"name\":" + optionJson<string>(t.name, stringJson) + ",\"table\":" + t.table.toString() + ",\"type\":" + anyTypeJson(t.type) + ",\"indexes\":[" + indexes.join(",") + "]}";
}

function databaseJson(database: Array<NamedTables>): string {
  const parts = new Array<string>();
  for (let i = 0; i < database.length; i++) {
    const tables = new Array<string>();
    for (let j = 0; j < database[i].second.length; j++) tables.push(tableJson(database[i].second[j]));
    parts.push(jsonString(database[i].first) + ":[" + tables.join(",") + "]");
  }
  return "{" + parts.join(",") + "}";
}

function eventsJson(events: Array<NamedEvent>): string {
  const parts = new Array<string>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i].second;
    parts.push(jsonString(events[i].first) + ":{\"type\":" + anyTypeJson(e.type) + ",\"access\":" + jsonString(e.access) + "}");
  }
  return "{" + parts.join(",") + "}";
}

/** The schema as psibase's packages service writes it (every member, absent options as null). */
export function serviceSchemaJson(s: ServiceSchema): string {
  const types = new Array<string>();
  for (let i = 0; i < s.types.length; i++) types.push(jsonString(s.types[i].first) + ":" + anyTypeJson(s.types[i].second));
  const actions = new Array<string>();
  for (let i = 0; i < s.actions.length; i++) {
    const f = s.actions[i].second;
    actions.push(jsonString(s.actions[i].first) + ":{\"params\":" + anyTypeJson(f.params) + ",\"result\":" + optionJson<AnyType>(f.result, anyTypeJson) + "}");
  }
  return "{\"service\":" + jsonString(accountName(s.service)) +
    ",\"types\":{" + types.join(",") + "}" +
    ",\"actions\":{" + actions.join(",") + "}" +
    ",\"history\":" + eventsJson(s.history) +
    ",\"merkle\":" + eventsJson(s.merkle) +
    ",\"database\":" + optionJson<Array<NamedTables>>(s.database, databaseJson) + "}";
}
