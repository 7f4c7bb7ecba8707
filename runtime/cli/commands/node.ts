import { readFileSync } from 'node:fs';
import type { ShutdownRequest } from '../../admin/node-control.js';
import { MAX_PEERS_CAP, type ListenSpec } from '../../config/server-config.js';
import { adminNetworksOf } from '../../http/admin-networks.js';
import type { NodeStartOptions, TsibaseNode } from '../../node/tsibase-node.js';
import { option, parseArgs, UsageError } from '../args.js';
import { RESTART_LISTEN_ENV, SUPERVISED_ENV, supervise, type RestartMessage } from '../supervisor.js';
import { BOOT_KEY_OPTIONS, bootKeyUsage, bootKeys } from './boot-keys.js';

export const NODE_USAGE = `usage: tsibase node <dir> [options]

Runs a node with its data in <dir>. Its configuration is <dir>/config.json (created on first
start, changed with PUT /config on x-admin); these options beat the file:

options:
  -p, --producer <name>      produce blocks as <name>
  -o, --host <host>          a root host of this node (repeatable; default tsibase.localhost)
  -l, --listen <[addr:]port> where to listen for HTTP, or a unix socket path with a '/'
                             (repeatable; default 127.0.0.1:8080)
      --block-interval <ms>  block interval (default 1000)
      --p2p                  accept peer-to-peer links from other nodes (config p2p)
      --peer <url>           a peer to keep linked: http://host:port, https://host:port
                             or a unix socket path (repeatable; config peers)
      --join <url>           join the network of the node at <url>: sync its chain, follow
                             it, and with -p produce once the network's producers include
                             this node (kept in config peers; <url> must accept links)
      --max-peers <n>        peer links past which incoming ones are refused (default 64;
                             config max_peers)
      --boot <bundle>        boot a chain from <bundle> if the node has none (needs a producer,
                             from -p or config.json)
${bootKeyUsage(29)}`;

export function parseListen(value: string): ListenSpec {
  if (value.includes('/')) return { protocol: 'local', path: value };
  const m = /^(?:(.*):)?(\d+)$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port < 65536)) throw new UsageError(`--listen: '${value}' is not a port, address:port or socket path`);
  return { protocol: 'http', address: m[1] || '127.0.0.1', port };
}

/**
 * TSIBASE_P2P_REDIAL_MS replaces psibase's 30 s redial base (and step; the most is 10 times it)
 * of autoconnect (docs/p2p.md §1.5): tests set a small one to see a lost peer come back quickly.
 */
export const REDIAL_ENV = 'TSIBASE_P2P_REDIAL_MS';

function redialBaseOf(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[REDIAL_ENV];
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1) throw new UsageError(`${REDIAL_ENV} must be a whole number of milliseconds, at least 1`);
  return ms;
}

/** The command line's start options, and the bundle `--boot` names (read only where the node runs). */
function startOptions(argv: string[]): { options: NodeStartOptions; bundlePath: string | undefined } {
  const args = parseArgs(argv, [
    { name: 'producer', short: 'p' },
    { name: 'host', short: 'o', repeatable: true },
    { name: 'listen', short: 'l', repeatable: true },
    { name: 'block-interval' },
    { name: 'p2p', flag: true },
    { name: 'peer', repeatable: true },
    { name: 'join' },
    { name: 'max-peers' },
    { name: 'boot' },
    ...BOOT_KEY_OPTIONS,
  ]);
  const [dir, extra] = args.positional;
  if (!dir || extra) throw new UsageError(`${dir ? `unexpected argument '${extra}'` : 'missing <dir>'}\n\n${NODE_USAGE}`);
  const interval = Number(option(args, 'block-interval') ?? '1000');
  if (!(interval >= 10)) throw new UsageError('--block-interval must be at least 10 ms');
  const bundlePath = option(args, 'boot');
  const producer = option(args, 'producer');
  const maxPeers = option(args, 'max-peers');
  if (maxPeers !== undefined && !(/^\d+$/.test(maxPeers) && Number(maxPeers) >= 1 && Number(maxPeers) <= MAX_PEERS_CAP)) {
    throw new UsageError(`--max-peers must be a whole number from 1 to ${MAX_PEERS_CAP}, not '${maxPeers}'`);
  }
  const keys = bootKeys(args);
  const join = option(args, 'join');
  if (join !== undefined && bundlePath) throw new UsageError('--join takes the chain of the network it joins: no --boot with it');
  if (!bundlePath && keys.accountKey) throw new UsageError('--account-key is a key for --boot');
  return {
    options: {
      dir,
      producer,
      hosts: args.options.get('host'),
      listen: args.options.get('listen')?.map(parseListen),
      blockIntervalMs: interval,
      ...(args.options.has('p2p') ? { p2p: true } : {}),
      peers: args.options.get('peer'),
      ...(join !== undefined ? { join } : {}),
      ...(maxPeers !== undefined ? { maxPeers: Number(maxPeers) } : {}),
      redialBaseMs: redialBaseOf(process.env),
      bootKeys: keys,
    },
    bundlePath,
  };
}

/** The listeners a restarted node asks for: those the command line gave, on the ports they got. */
function restartListen(given: readonly ListenSpec[] | undefined, node: TsibaseNode): ListenSpec[] | undefined {
  return given?.map((spec, i) => (spec.protocol !== 'local' && spec.port === 0 ? node.listeners[i]! : spec));
}

function signalled(): Promise<ShutdownRequest> {
  return new Promise((resolve) => {
    const stop = () => resolve({ restart: false, force: false, soft: false });
    // Kept for the process's life: a second signal during the stop must not kill it half-way.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function nodeCommand(argv: string[]): Promise<number> {
  const { options, bundlePath } = startOptions(argv);
  // The supervisor checks the arguments (and that a node to join takes links) only: the bundle
  // is read by the process that boots it.
  if (!process.env[SUPERVISED_ENV]) {
    if (options.join !== undefined) await (await import('../join-check.js')).checkJoinable(options.join);
    return superviseNode(['node', ...argv]);
  }
  return runNode(options, bundlePath, (node) => {
    for (const l of node.listeners) {
      const where = l.protocol === 'local' ? l.path : `http${l.protocol === 'https' ? 's' : ''}://${node.config().hosts[0]}:${l.port} (${l.address})`;
      console.log(`tsibase node listening on ${where}${node.chain.producer ? `, producing as ${node.chain.producer}` : ''}`);
    }
  });
}

/** Runs this process's command line (`argv`, a command that ends in runNode) in supervised child processes; `onMessage` hears what they send. */
export function superviseNode(argv: string[], onMessage?: (message: unknown) => void): Promise<number> {
  // An admin network that does not parse stops the node before it listens: an operator who
  // meant to admit (or thought they had fenced off) a range learns it now, not from a 401.
  adminNetworksOf(process.env);
  return supervise(process.argv[1]!, argv, onMessage);
}

/**
 * The node of a supervised child process (`tsibase node`, `tsibase dev`): starts it (booting
 * `bundlePath` when it has no chain), calls `started` once it runs and `stopped` each time it has
 * stopped (its store closed), and stops or restarts it as asked; the process's exit code.
 */
export async function runNode(
  options: NodeStartOptions, bundlePath: string | undefined, started: (node: TsibaseNode) => void, stopped: () => Promise<void> = async () => {},
): Promise<number> {
  // Only the supervised child loads the runtime (runtime/cli/main.ts says why).
  const [{ unpackBundle }, { TsibaseNode }] = await Promise.all([import('../../../host-api/index.js'), import('../../node/tsibase-node.js')]);
  const boot = bundlePath ? unpackBundle(readFileSync(bundlePath)) : undefined;
  const inherited = process.env[RESTART_LISTEN_ENV];
  let listen = inherited ? (JSON.parse(inherited) as ListenSpec[] | null) ?? options.listen : options.listen;
  const stop = signalled();
  for (;;) {
    const node = await TsibaseNode.start({ ...options, boot, listen });
    started(node);
    const request = await Promise.race([node.shutdownRequested, stop]);
    await node.stop(request);
    await stopped();
    if (!request.restart) return 0;
    listen = restartListen(listen, node);
    if (request.soft) continue;
    const message: RestartMessage = { restart: { listen } };
    await new Promise<void>((resolve) => process.send!(message, () => resolve()));
    return 0;
  }
}
