import { readFileSync } from 'node:fs';
import type { ShutdownRequest } from '../../admin/node-control.js';
import type { ListenSpec } from '../../config/server-config.js';
import { adminNetworksOf } from '../../http/admin-networks.js';
import type { NodeStartOptions, TsibaseNode } from '../../node/tsibase-node.js';
import { option, parseArgs, UsageError, type OptionSpec } from '../args.js';
import { RESTART_LISTEN_ENV, SUPERVISED_ENV, supervise, type RestartMessage } from '../supervisor.js';
import { BOOT_KEY_OPTIONS, bootKeyUsage } from './boot-keys.js';

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

/** The options of `tsibase node`: parsed by the supervisor too, which leaves checking their values to the node's process. */
const NODE_OPTIONS: readonly OptionSpec[] = [
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
];

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
  const args = parseArgs(argv, NODE_OPTIONS);
  const [dir, extra] = args.positional;
  if (!dir || extra) throw new UsageError(`${dir ? `unexpected argument '${extra}'` : 'missing <dir>'}\n\n${NODE_USAGE}`);
  const join = option(args, 'join');
  if (join !== undefined && option(args, 'boot')) throw new UsageError('--join takes the chain of the network it joins: no --boot with it');
  // The supervisor checks that a node to join takes links, and forks: the node's process checks
  // the other values and reads the keys and the bundle (its usage errors and exit code are the
  // command's), so a supervisor loads none of that code.
  if (!process.env[SUPERVISED_ENV]) {
    if (join !== undefined) await (await import('../join-check.js')).checkJoinable(join);
    return superviseNode(['node', ...argv]);
  }
  const { startOptions } = await import('../node-start-options.js');
  const { options, bundlePath } = startOptions(args, dir, process.env);
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
