import { MAX_PEERS_CAP } from '../config/server-config.js';
import type { NodeStartOptions } from '../node/tsibase-node.js';
import { option, UsageError, type ParsedArgs } from './args.js';
import { bootKeys } from './commands/boot-key-files.js';
import { parseListen } from './listen-argument.js';

// `tsibase node`'s start options from its command line, checked: what the node's own process
// reads (the supervisor loads none of the configuration and key code this needs).

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

/**
 * The start options of `tsibase node`'s parsed command line (its <dir> checked there), and the
 * bundle `--boot` names; `env` gives TSIBASE_P2P_REDIAL_MS.
 */
export function startOptions(args: ParsedArgs, dir: string, env: NodeJS.ProcessEnv): { options: NodeStartOptions; bundlePath: string | undefined } {
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
      redialBaseMs: redialBaseOf(env),
      bootKeys: keys,
    },
    bundlePath,
  };
}

