import { readFileSync } from 'node:fs';
import { TsibaseError } from '../../../host-api/errors.js';
import { Action, hexToBytes } from '../../../host-api/index.js';
import { renderTrace, traceConsole, TRACE_FORMATS, type TraceFormat } from '../../../host-api/traces/render-trace.js';
import type { TransactionTraceJson } from '../../../host-api/traces/trace-json.js';
import { option, parseArgs, UsageError, type ParsedArgs } from '../args.js';
import { TransactionFailed, type ChainClient } from '../chain-client.js';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const PUSH_USAGE = `usage: tsibase push <actions.json | -> [options]

Pushes one signed transaction holding the actions in the file (or standard input): a JSON array
of actions, or one action, each
  {"sender": "alice", "service": "tokens", "method": "transfer", "data": {...}}
with the arguments either as "data" (packed by the service's /pack_action/<method>) or as
"rawData" (hex of the packed arguments).

options:
${CLIENT_OPTIONS_USAGE}
      --trace <format>         how the trace is printed: error (a failure's message), stack
                               (default: the actions that failed, then the message), full (the
                               tree of actions with their console output and events, also on
                               success) or json (the trace as the node answers it)
      --console                print only the console output the actions wrote`;

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

function traceFormat(args: ParsedArgs): TraceFormat {
  const format = option(args, 'trace') ?? 'stack';
  if (!(TRACE_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--trace must be one of ${TRACE_FORMATS.join(', ')}, not '${format}'`);
  return format as TraceFormat;
}

/**
 * What a pushed transaction's trace prints: with --console only the console output; else a full
 * or json trace, on success as on failure. A failure's own report (its message, or its stack)
 * is the command's error.
 */
function printTrace(trace: TransactionTraceJson, format: TraceFormat, consoleOnly: boolean): void {
  if (consoleOnly) process.stdout.write(traceConsole(trace));
  else if (format === 'full' || format === 'json') console.log(renderTrace(trace, format));
}

export async function pushCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [...CLIENT_OPTIONS, { name: 'trace' }, { name: 'console', flag: true }]);
  const [source, extra] = args.positional;
  if (!source || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <actions.json>'}\n\n${PUSH_USAGE}`);
  const format = traceFormat(args);
  const consoleOnly = args.options.has('console');
  const options = pushOptions(args);
  const client = chainClient(args);
  const actions = await Promise.all(readActions(source).map((json, i) => toAction(client, json, i)));
  let pushed;
  try {
    pushed = await client.push(actions, options);
  } catch (err) {
    if (!(err instanceof TransactionFailed)) throw err;
    printTrace(err.trace, format, consoleOnly);
    const report = format === 'stack' ? renderTrace(err.trace, 'stack') : err.trace.error;
    throw new TsibaseError(err.code, `transaction ${err.id} failed:\n${report}`);
  }
  printTrace(pushed.trace, format, consoleOnly);
  if (!consoleOnly) console.log(`transaction ${pushed.id} ${options.waitFor === 'final' ? 'is in a final block' : 'applied'}`);
  return 0;
}
