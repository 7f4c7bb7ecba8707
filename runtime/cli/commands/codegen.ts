import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SCHEMA_EVENT_KINDS } from '../../../host-api/client/service-codec.js';
import { TsibaseError } from '../../../host-api/errors.js';
import { clientSource } from '../../codegen/client-source.js';
import { readClientSchema } from '../../codegen/schema-input.js';
import { readJsonFile } from '../../fs/json-file.js';
import { replaceFile } from '../../fs/atomic-file.js';
import { option, parseArgs, UsageError } from '../args.js';

export const CODEGEN_USAGE = `usage: tsibase codegen <schema.json> [options]

Writes the typed TypeScript client of a service from the schema 'tsibase build' writes
(build/<service>.schema.json): a function per action that takes its typed arguments and returns
the Action to run in TestChain or push to a node, decoders of the actions' return values, of the
events and of the tables' rows, and the types of them all. The file imports only 'tsibase' and
compiles under tsc --strict. Write it again when the schema changes.

  import { actions, results } from './build/<service>-client.js';
  const run = chain.run(actions('alice').setNote('hello'));   // TestChain ('tsibase/testing')
  const length = results.setNote(run.retval);                 // typed: number
  const pushed = await connect(url, { keys }).push([actions('alice').setNote('hi')]);   // 'tsibase/client'
  results.setNote(pushed.retvals[0]);

options:
  -o, --out <file.ts>   where to write the client (default <service>-client.ts beside the schema)`;

export function codegenCommand(argv: string[]): number {
  const args = parseArgs(argv, [{ name: 'out', short: 'o' }]);
  const [file, extra] = args.positional;
  if (!file || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <schema.json>'}\n\n${CODEGEN_USAGE}`);
  const given = option(args, 'out');
  if (given !== undefined && !given.endsWith('.ts')) throw new UsageError(`the client is TypeScript: give -o a file ending in .ts, not '${given}'`);
  const json = readJsonFile(file, (problem) => new TsibaseError('CODEGEN_BAD_SCHEMA', `${file} is not JSON: ${problem}`));
  if (json === undefined) throw new TsibaseError('CODEGEN_NO_SCHEMA', `${file} does not exist: build the service first ('tsibase build' writes build/<service>.schema.json)`);
  const schema = readClientSchema(json, file);
  const out = given ?? join(dirname(file), `${schema.service}-client.ts`);
  mkdirSync(dirname(out), { recursive: true });
  replaceFile(out, clientSource(schema, file));
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  console.log(`${out}  the client of ${schema.service}: ${count(Object.keys(schema.actions).length, 'action')}, ${count(SCHEMA_EVENT_KINDS.reduce((n, k) => n + Object.keys(schema[k] ?? {}).length, 0), 'event')}`);
  return 0;
}
