// The schema a typed client is generated from: a build's build/<service>.schema.json or psibase
// HEAD's form of it (docs/formats.md §2), checked whole before any code is written, so a bad
// schema gives one error naming the place and the problem.
import { TsibaseError } from '../../host-api/errors.js';
import { SCHEMA_EVENT_KINDS } from '../../host-api/client/service-codec.js';
import { recordMembers, type ClientSchema, type SchemaTable } from '../../host-api/client/service-client.js';
import { compileSchema, type AnyType, type CompiledSchema, type Schema } from '../../host-api/fracpack/index.js';
import { isValidAccountName, tryMethodNumberFromName } from '../../host-api/names/index.js';

const WHAT_TO_GIVE = "give the schema 'tsibase build' writes beside the module (build/<service>.schema.json)";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An event's type: a build's schema gives the type itself, psibase HEAD's `{type, access}`. */
function eventType(event: unknown): unknown {
  return isRecord(event) && 'type' in event ? event.type : event;
}

class SchemaReader {
  private readonly compiled: CompiledSchema;

  constructor(private readonly source: string, readonly types: Schema) {
    this.compiled = compileSchema(types);
  }

  fail(where: string, problem: string): TsibaseError {
    return new TsibaseError('CODEGEN_BAD_SCHEMA', `${this.source}: ${where}: ${problem}; ${WHAT_TO_GIVE}`);
  }

  /** A type expression that compiles against the schema's types. */
  type(where: string, value: unknown): AnyType {
    try {
      this.compiled.typeOf(value as AnyType);
    } catch (err) {
      throw this.fail(where, (err as Error).message);
    }
    return value as AnyType;
  }

  object(where: string, value: unknown): Record<string, unknown> {
    if (!isRecord(value)) throw this.fail(where, `expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
    return value;
  }

  action(name: string, value: unknown): ClientSchema['actions'][string] {
    const where = `actions.${name}`;
    if (tryMethodNumberFromName(name) === 0n) throw this.fail(where, `'${name}' is not a method name (letters, digits and '_')`);
    const action = this.object(where, value);
    const params = this.type(`${where}.params`, action.params);
    if (!recordMembers(this.types, params)) throw this.fail(`${where}.params`, 'the parameters must be an Object or Struct type');
    return action.result == null ? { params } : { params, result: this.type(`${where}.result`, action.result) };
  }

  events(kind: string, value: unknown, names: Set<string>): Record<string, AnyType> {
    const events: Record<string, AnyType> = {};
    for (const [name, event] of Object.entries(this.object(kind, value))) {
      if (names.has(name)) throw this.fail(`${kind}.${name}`, 'an event of that name is listed twice');
      if (tryMethodNumberFromName(name) === 0n) throw this.fail(`${kind}.${name}`, `'${name}' is not a method name (letters, digits and '_')`);
      names.add(name);
      events[name] = this.type(`${kind}.${name}`, eventType(event));
    }
    return events;
  }

  database(value: unknown): Record<string, SchemaTable[]> {
    const database: Record<string, SchemaTable[]> = {};
    for (const [db, list] of Object.entries(this.object('database', value))) {
      if (!Array.isArray(list)) throw this.fail(`database.${db}`, 'expected a list of tables');
      database[db] = list.map((entry, i) => {
        const where = `database.${db}[${i}]`;
        const table = this.object(where, entry);
        if (!Number.isInteger(table.table) || (table.table as number) < 0 || (table.table as number) > 0xffff) throw this.fail(`${where}.table`, 'expected a table number (u16)');
        if (table.name != null && typeof table.name !== 'string') throw this.fail(`${where}.name`, 'expected a string');
        return { name: (table.name as string | null | undefined) ?? null, table: table.table as number, type: this.type(`${where}.type`, table.type) };
      });
    }
    return database;
  }
}

/** The schema in `json` (read from `source`, named in errors) as a typed client packs with it. */
export function readClientSchema(json: unknown, source: string): ClientSchema {
  if (!isRecord(json)) throw new TsibaseError('CODEGEN_BAD_SCHEMA', `${source}: expected a service schema (a JSON object); ${WHAT_TO_GIVE}`);
  const { service } = json;
  if (typeof service !== 'string' || !isValidAccountName(service) || service === '') {
    throw new TsibaseError('CODEGEN_BAD_SCHEMA', `${source}: "service" must be the service's account name, got ${JSON.stringify(service)}; ${WHAT_TO_GIVE}`);
  }
  if (!isRecord(json.types)) throw new TsibaseError('CODEGEN_BAD_SCHEMA', `${source}: "types" must be an object of named types; ${WHAT_TO_GIVE}`);
  const types = json.types as Schema;
  const reader = new SchemaReader(source, types);
  for (const name of Object.keys(types)) reader.type(`types.${name}`, name);
  const actions: ClientSchema['actions'] = {};
  for (const [name, action] of Object.entries(reader.object('actions', json.actions))) actions[name] = reader.action(name, action);
  const eventNames = new Set<string>();
  const [history, ui, merkle] = SCHEMA_EVENT_KINDS.map((kind) => (json[kind] == null ? {} : reader.events(kind, json[kind], eventNames)));
  const schema: ClientSchema = { service, types, actions, history: history!, ui: ui!, merkle: merkle! };
  if (json.database != null) schema.database = reader.database(json.database);
  return schema;
}
