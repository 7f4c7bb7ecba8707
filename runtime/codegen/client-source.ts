// The source of a service's typed client (docs/codegen.md): TypeScript that imports only the
// `tsibase` package, declares the schema's types, each action's arguments and result, each
// event's data and each table's row, and binds them to a ServiceClient over the schema itself.
import { SCHEMA_EVENT_KINDS } from '../../host-api/client/service-codec.js';
import { recordMembers, schemaTables, type ClientSchema } from '../../host-api/client/service-client.js';
import { IdentifierSet, propertyKey } from './identifiers.js';
import { TypeScriptTypes } from './type-script-types.js';

/**
 * The names the file declares or uses besides the schema's types: a schema type of one of these
 * names is declared under another.
 */
const OWN_NAMES = [
  'SERVICE', 'SCHEMA', 'client', 'actions', 'results', 'events', 'rows',
  'Actions', 'Results', 'Events', 'Rows', 'Action', 'ClientSchema', 'ServiceClient', 'Array', 'Uint8Array', 'Record',
];

/** `members` as an interface body, one per line, or an empty body. */
function interfaceBody(members: string[]): string {
  return members.length === 0 ? '{}' : `{\n${members.map((m) => `  ${m}`).join('\n')}\n}`;
}

/** The TypeScript source of the typed client of `schema`, read from `source` (named in its header). */
export function clientSource(schema: ClientSchema, source: string): string {
  const types = new TypeScriptTypes(schema.types, new IdentifierSet(OWN_NAMES));
  const actionMembers: string[] = [];
  const resultMembers: string[] = [];
  for (const [name, action] of Object.entries(schema.actions)) {
    const params = new IdentifierSet();
    const args = recordMembers(schema.types, action.params)!.map(([member, type]) => `${params.claim(member)}: ${types.expression(type)}`);
    actionMembers.push(`${propertyKey(name)}(${args.join(', ')}): Action;`);
    if (action.result != null) resultMembers.push(`${propertyKey(name)}: ${types.expression(action.result)};`);
  }
  const eventMembers: string[] = [];
  for (const kind of SCHEMA_EVENT_KINDS) {
    for (const [name, type] of Object.entries(schema[kind] ?? {})) {
      eventMembers.push(`/** A ${kind} event. */`, `${propertyKey(name)}: ${types.expression(type)};`);
    }
  }
  const rowMembers = [...schemaTables(schema)].map(([key, type]) => `${propertyKey(key)}: ${types.expression(type)};`);
  // Last: writing the members above may have given more types declarations.
  const declarations = types.declarations();

  return [
    `// The typed client of the service ${schema.service}, written by 'tsibase codegen' from ${source}.`,
    `// Write it again with 'tsibase codegen' when the schema changes, rather than edit it.`,
    `import { ServiceClient, type Action, type ClientSchema } from 'tsibase';`,
    '',
    `/** The account the service was built for, where its actions go unless \`actions\` is told another. */`,
    `export const SERVICE = ${JSON.stringify(schema.service)};`,
    ...declarations.flatMap((d) => ['', d]),
    '',
    `/** The actions: each takes the action's arguments in order and returns the Action to run or push. */`,
    `export interface Actions ${interfaceBody(actionMembers)}`,
    '',
    `/** What each action that returns a value returns. */`,
    `export interface Results ${interfaceBody(resultMembers)}`,
    '',
    `/** The data of each event. */`,
    `export interface Events ${interfaceBody(eventMembers)}`,
    '',
    `/** The row of each table. */`,
    `export interface Rows ${interfaceBody(rowMembers)}`,
    '',
    `const SCHEMA: ClientSchema = ${JSON.stringify(schema, null, 2)};`,
    '',
    `/** The client over the schema: its codec packs and unpacks with AccountNumber and MethodNumber values as names. */`,
    `export const client = new ServiceClient<Actions, Results, Events, Rows>(SCHEMA);`,
    '',
    `/** The actions as \`sender\` sends them to \`service\` (by default SERVICE). */`,
    `export function actions(sender: string, service: string = SERVICE): Actions {`,
    `  return client.actions(sender, service);`,
    `}`,
    '',
    `/** Per action that returns a value: its return value (a run's or a trace's retval bytes) decoded. */`,
    `export const results = client.results;`,
    '',
    `/** Per event: its data decoded from the event's stored bytes. */`,
    `export const events = client.events;`,
    '',
    `/** Per table: a row decoded from its stored bytes. */`,
    `export const rows = client.rows;`,
    '',
  ].join('\n');
}
