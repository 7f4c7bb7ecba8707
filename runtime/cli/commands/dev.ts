import { existsSync, rmSync } from 'node:fs';
import type { ListenSpec } from '../../config/server-config.js';
import { DirectoryLock } from '../../fs/directory-lock.js';
import type { TsibaseNode } from '../../node/tsibase-node.js';
import { defaultBundlePath } from '../../fs/package-paths.js';
import { option, parseArgs, UsageError } from '../args.js';
import { SUPERVISED_ENV } from '../supervisor.js';
import { parseListen, runNode, superviseNode } from './node.js';

// `tsibase dev`: a development chain in one command, the same node `tsibase node --boot` runs,
// with the defaults a service author wants (docs/administration.md has the node's options).

const DEV_HOST = 'tsibase.localhost';
const DEV_PRODUCER = 'prod';
const DEV_DATA = 'tsibase-data';
/** A line about the chain's progress a minute, not a line a block, in an author's terminal. */
const DEV_BLOCK_LOG_INTERVAL = 60;

export const DEV_USAGE = `usage: tsibase dev [options]

Runs a development chain: a node producing as '${DEV_PRODUCER}' that boots the default bundle (the
system services, the example service) when its data holds no chain yet, served on
http://${DEV_HOST}:8080. Anyone may act as any account on it: it is for development only.

options:
  -l, --listen <[addr:]port>  where to listen for HTTP (default 127.0.0.1:8080)
      --data <dir>            the node's data (default ./${DEV_DATA})
      --reset                 delete the data first and boot a new chain`;

/** The pages a developer opens, by what they show. */
function pagesOf(listen: ListenSpec): [string, string][] {
  const port = listen.protocol === 'local' ? undefined : listen.port;
  const url = (label: string) => `http://${label ? `${label}.` : ''}${DEV_HOST}${port === 80 || port === undefined ? '' : `:${port}`}/`;
  return [
    ['the chain\'s homepage', url('')],
    ['the example service', url('example')],
    ['the node\'s admin app', url('x-admin')],
  ];
}

function announce(node: TsibaseNode, data: string): void {
  const [listen] = node.listeners;
  console.log(`tsibase dev: a development chain (anyone may act as any account), data in ${data}, producing as ${node.chain.producer}`);
  if (!listen) return;
  for (const [what, url] of pagesOf(listen)) console.log(`  ${url.padEnd(40)} ${what}`);
  console.log(`Deploy a service with 'tsibase deploy -i -r <account> <file.wasm>'; 'tsibase new-service <name>' starts one.`);
}

/** Deletes the dev chain's data, unless another process runs on it (which keeps it). */
function resetData(data: string): void {
  const lock = existsSync(data) ? DirectoryLock.take(data) : undefined;
  try {
    rmSync(data, { recursive: true, force: true });
  } finally {
    lock?.release();
  }
}

export async function devCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'listen', short: 'l' }, { name: 'data' }, { name: 'reset', flag: true }]);
  if (args.positional.length > 0) throw new UsageError(`unexpected argument '${args.positional[0]}'\n\n${DEV_USAGE}`);
  const listen = parseListen(option(args, 'listen') ?? '8080');
  const data = option(args, 'data') ?? DEV_DATA;
  if (!process.env[SUPERVISED_ENV]) {
    // Only here: a restarted child must keep the chain it has.
    if (args.options.has('reset')) resetData(data);
    return superviseNode(['dev', ...argv]);
  }
  const options = { dir: data, producer: DEV_PRODUCER, hosts: [DEV_HOST], listen: [listen], blockIntervalMs: 1000, blockLogInterval: DEV_BLOCK_LOG_INTERVAL };
  return runNode(options, defaultBundlePath(), (node) => announce(node, data));
}
