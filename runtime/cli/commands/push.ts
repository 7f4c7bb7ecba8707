import { readFileSync } from 'node:fs';
import { TsibaseError } from '../../../host-api/errors.js';
import { Action, hexToBytes } from '../../../host-api/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { ChainClient } from '../chain-client.js';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const PUSH_USAGE = `usage: tsibase push <actions.json | -> [options]

Pushes one signed transaction holding the actions in the file (or standard input): a JSON array
of actions, or one action, each
  {"sender": "alice", "service": "tokens", "method": "transfer", "data": {...}}
with the arguments either as "data" (packed by the service's /pack_action/<method>) or as
"rawData" (hex of the packed arguments).

options:
${CLIENT_OPTIONS_USAGE}
      --trace                  print the whole transaction trace as JSON`;

interface ActionJson {
  sender?: unknown;
  service?: unknown;
  method?: unknown;
  data?: unknown;
  rawData?: unknown;
}

function readActions(source: string): ActionJson[] {
  const text = readFileSync(source === '-' ? 0 : source, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new TsibaseError('CLI_BAD_INPUT', `${source === '-' ? 'standard input' : source} is not JSON: ${(err as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0) throw new TsibaseError('CLI_BAD_INPUT', 'no actions to push');
  return list as ActionJson[];
}

async function toAction(client: ChainClient, json: ActionJson, index: number): Promise<Action> {
  const where = `action ${index}`;
  if (json === null || typeof json !== 'object') throw new TsibaseError('CLI_BAD_INPUT', `${where} is not an object`);
  for (const field of ['sender', 'service', 'method'] as const) {
    if (typeof json[field] !== 'string' || json[field] === '') throw new TsibaseError('CLI_BAD_INPUT', `${where}: "${field}" must be a name`);
  }
  const sender = accountArgument(json.sender as string);
  const service = accountArgument(json.service as string);
  const method = json.method as string;
  if (json.data !== undefined && json.rawData !== undefined) throw new TsibaseError('CLI_BAD_INPUT', `${where}: give "data" or "rawData", not both`);
  let rawData: Uint8Array;
  if (typeof json.rawData === 'string') {
    try {
      rawData = hexToBytes(json.rawData);
    } catch (err) {
      throw new TsibaseError('CLI_BAD_INPUT', `${where}: "rawData" is not hex: ${(err as Error).message}`);
    }
  } else if (json.rawData !== undefined) {
    throw new TsibaseError('CLI_BAD_INPUT', `${where}: "rawData" must be a hex string`);
  } else {
    rawData = await client.packAction(service, method, json.data ?? {});
  }
  try {
    return Action.unpack(Action.pack({ sender, service, method, rawData }));
  } catch (err) {
    throw new TsibaseError('CLI_BAD_INPUT', `${where}: ${(err as Error).message}`);
  }
}

export async function pushCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [...CLIENT_OPTIONS, { name: 'trace', flag: true }]);
  const [source, extra] = args.positional;
  if (!source || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <actions.json>'}\n\n${PUSH_USAGE}`);
  const options = pushOptions(args);
  const client = chainClient(args);
  const actions = await Promise.all(readActions(source).map((json, i) => toAction(client, json, i)));
  const { id, trace } = await client.push(actions, options);
  if (args.options.has('trace')) console.log(JSON.stringify(trace, null, 2));
  console.log(`transaction ${id} ${options.waitFor === 'final' ? 'is in a final block' : 'applied'}`);
  return 0;
}
