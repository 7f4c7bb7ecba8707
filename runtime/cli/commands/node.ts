import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootTransactions, runBoot, unpackBundle } from '../../../host-api/index.js';
import { Chain } from '../../chain/chain.js';
import { LmdbStore } from '../../db/lmdb-store.js';
import { NodeHttpServer } from '../../http/server.js';
import { SessionTokens } from '../../http/session-tokens.js';
import { HttpSockets } from '../../http/sockets.js';
import { Engine } from '../../wasm/engine.js';
import { option, parseArgs, UsageError } from '../args.js';

export const NODE_USAGE = `usage: tsibase node <dir> [options]

Runs a node with its data in <dir>.

options:
  -p, --producer <name>      produce blocks as <name>
  -o, --host <host>          a root host of this node (repeatable; default tsibase.localhost)
  -l, --listen <[addr:]port> where to listen for HTTP (default 127.0.0.1:8080)
      --block-interval <ms>  block interval (default 1000)
      --boot <bundle>        boot a chain from <bundle> if the node has none (needs --producer)`;

function parseListen(value: string): { address: string; port: number } {
  const m = /^(?:(.*):)?(\d+)$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port < 65536)) throw new UsageError(`--listen: '${value}' is not a port or address:port`);
  return { address: m[1] || '127.0.0.1', port };
}

export async function nodeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [
    { name: 'producer', short: 'p' },
    { name: 'host', short: 'o', repeatable: true },
    { name: 'listen', short: 'l' },
    { name: 'block-interval' },
    { name: 'boot' },
  ]);
  const [dir, extra] = args.positional;
  if (!dir || extra) throw new UsageError(`${dir ? `unexpected argument '${extra}'` : 'missing <dir>'}\n\n${NODE_USAGE}`);
  const producer = option(args, 'producer') ?? '';
  const hosts = args.options.get('host') ?? ['tsibase.localhost'];
  const listen = parseListen(option(args, 'listen') ?? '8080');
  const interval = Number(option(args, 'block-interval') ?? '1000');
  if (!(interval >= 10)) throw new UsageError('--block-interval must be at least 10 ms');
  const bundlePath = option(args, 'boot');
  if (bundlePath && !producer) throw new UsageError('--boot needs --producer');
  const bundle = bundlePath ? unpackBundle(readFileSync(bundlePath)) : undefined;

  mkdirSync(dir, { recursive: true });
  const store = LmdbStore.open(join(dir, 'db'));
  const sockets = new HttpSockets();
  const chain = new Chain(store, new Engine(), {
    producer,
    sockets,
    blockIntervalMs: interval,
    onCallbackError: (err) => console.error(`callback: ${err.message}`),
  });
  if (bundle && !chain.hasChain) {
    const started = performance.now();
    const boot = bootTransactions(bundle, { producer });
    await runBoot(boot, { pushBoot: async (body) => chain.boot(body), push: (t) => chain.push(t, 'applied') });
    console.log(`booted a chain with ${bundle.services.length} services in ${Math.round(performance.now() - started)} ms`);
  }
  chain.start();
  const tokens = SessionTokens.fromKeyFile(join(dir, 'session-key'));
  const server = new NodeHttpServer(chain, { hosts, sockets, tokens, onError: (err) => console.error(`http: ${err.stack ?? err.message}`) });
  const address = await server.listen(listen.port, listen.address);
  console.log(`tsibase node listening on http://${hosts[0]}:${address.port} (${address.address})${producer ? `, producing as ${producer}` : ''}`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  chain.stop();
  await server.close();
  await store.close();
  return 0;
}
