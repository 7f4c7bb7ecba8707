import { resolve } from 'node:path';
import type { ListenSpec } from '../../config/server-config.js';
import type { NodeStartOptions, TsibaseNode } from '../../node/tsibase-node.js';
import { defaultBundlePath } from '../../fs/package-paths.js';
import { option, parseArgs, UsageError } from '../args.js';
import { resetData } from '../reset-data.js';
import { RESTART_LISTEN_ENV, SUPERVISED_ENV } from '../supervisor.js';
import { parseListen } from '../listen-argument.js';
import { runNode, superviseNode } from './node.js';

// `tsibase dev`: a development chain in one command, the same node `tsibase node --boot` runs,
// with the defaults a service author wants (docs/administration.md §4.3b has the dev modes).

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
      --reset                 delete the data first and boot a new chain
      --instant               a block for each transaction as soon as it arrives, and none
                              while no transaction comes (default: a block every second)
      --block-interval <ms>   a block every <ms> milliseconds, empty ones too (at least 10)
      --watch [dir]           build the service project in <dir> (default .; the layout of
                              tsibase new-service) on each save and deploy it to this chain,
                              creating its account: prints the build's errors or the new code hash
      --fork <file | url>     start from another chain's state: a snapshot file, or the node at
                              <url> (its admin API's GET /native/admin/snapshot, so run this
                              where that node admits you). On the fork anyone may act as any
                              account: the auth services are bypassed on this node only, and it
                              produces alone as '${DEV_PRODUCER}'; its transactions are not valid on
                              the original network. Kept in --data: later starts go on with it
      --state <file>          load the chain from <file> at start when it exists (replacing
                              --data), and write the chain's state there when it stops`;

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

/** What the node's process tells the supervising one when it runs (where `--watch` deploys to). */
interface DevNodeMessage {
  readonly devNode: { readonly api: string };
}

function isDevNodeMessage(message: unknown): message is DevNodeMessage {
  return typeof message === 'object' && message !== null && 'devNode' in message;
}

function announce(node: TsibaseNode, data: string, what: string): void {
  const [listen] = node.listeners;
  console.log(`tsibase dev: ${what}, data in ${data}, producing as ${node.chain.producer}`);
  if (!listen) return;
  for (const [page, url] of pagesOf(listen)) console.log(`  ${url.padEnd(40)} ${page}`);
  console.log(`Deploy a service with 'tsibase deploy -i -r <account> <file.wasm>'; 'tsibase new-service <name>' starts one.`);
  if (listen.protocol !== 'local') process.send?.({ devNode: { api: `http://${DEV_HOST}:${listen.port}` } } satisfies DevNodeMessage);
}

/** The dev modes of the command line, checked. */
interface DevModes {
  readonly listen: ListenSpec;
  readonly data: string;
  readonly reset: boolean;
  readonly timing: Pick<NodeStartOptions, 'instantBlocks' | 'blockIntervalMs'>;
  readonly watch: string | undefined;
  readonly fork: string | undefined;
  readonly state: string | undefined;
}

function devModes(argv: string[]): DevModes {
  const args = parseArgs(argv, [
    { name: 'listen', short: 'l' }, { name: 'data' }, { name: 'reset', flag: true }, { name: 'instant', flag: true },
    { name: 'block-interval' }, { name: 'watch', flag: true }, { name: 'fork' }, { name: 'state' },
  ]);
  const watching = args.options.has('watch');
  const [dir, extra] = args.positional;
  if (extra !== undefined || (dir !== undefined && !watching)) throw new UsageError(`unexpected argument '${extra ?? dir}'\n\n${DEV_USAGE}`);
  const interval = option(args, 'block-interval');
  if (interval !== undefined && args.options.has('instant')) throw new UsageError('--instant makes a block per transaction: no --block-interval with it');
  if (interval !== undefined && !(Number(interval) >= 10)) throw new UsageError('--block-interval must be at least 10 ms');
  const listen = parseListen(option(args, 'listen') ?? '8080');
  if (watching && listen.protocol === 'local') throw new UsageError('--watch deploys over HTTP: --listen a port, not a socket path');
  return {
    listen,
    data: option(args, 'data') ?? DEV_DATA,
    reset: args.options.has('reset'),
    timing: args.options.has('instant') ? { instantBlocks: true } : { blockIntervalMs: Number(interval ?? 1000) },
    watch: watching ? resolve(dir ?? '.') : undefined,
    fork: option(args, 'fork'),
    state: option(args, 'state'),
  };
}

export async function devCommand(argv: string[]): Promise<number> {
  const modes = devModes(argv);
  if (!process.env[SUPERVISED_ENV]) {
    // Only here: a restarted child must keep the chain it has.
    if (modes.reset) resetData(modes.data);
    if (!modes.watch) return superviseNode(['dev', ...argv]);
    const { ServiceWatcher } = await import('../dev-watch.js');
    const watcher = new ServiceWatcher(modes.watch);
    watcher.start();
    try {
      return await superviseNode(['dev', ...argv], (message) => {
        if (isDevNodeMessage(message)) watcher.nodeAt(message.devNode.api);
      });
    } finally {
      watcher.stop();
    }
  }
  // The first child prepares the data; a restarted one goes on with what it left.
  const { prepareDevData } = await import('../dev-data.js');
  const fork = process.env[RESTART_LISTEN_ENV] === undefined ? await prepareDevData(modes) : (await import('../../node/dev-fork-file.js')).readDevFork(modes.data);
  const options: NodeStartOptions = {
    dir: modes.data, producer: DEV_PRODUCER, hosts: [DEV_HOST], listen: [modes.listen], blockLogInterval: DEV_BLOCK_LOG_INTERVAL,
    ...modes.timing, ...(fork ? { devFork: fork } : {}),
  };
  const what = fork ? `a DEVELOPMENT FORK of ${fork.source} at block ${fork.blockNum} (auth bypassed: anyone may act as any account; not valid on the original network)` : 'a development chain (anyone may act as any account)';
  const state = modes.state;
  return runNode(options, fork ? undefined : defaultBundlePath(), (node) => announce(node, modes.data, what), async () => {
    if (!state) return;
    const { writeDevState } = await import('../../snapshot/dev-state.js');
    const written = await writeDevState(modes.data, state);
    console.log(`tsibase dev: the state of block ${written.blockNum} written to ${state}`);
  });
}
