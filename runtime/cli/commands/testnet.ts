import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { TsibaseError } from '../../../host-api/errors.js';
import { DirectoryLock } from '../../fs/directory-lock.js';
import { defaultBundlePath } from '../../fs/package-paths.js';
import { option, parseArgs, UsageError } from '../args.js';
import { ChainClient } from '../chain-client.js';
import { adminJson, metricOf, NODE_LOG, startNodeProcess, stopNodes, waitFor, type NodeProcess } from '../node-processes.js';
import { producerSetAction, producerSetOf, type Algorithm, type ProducerSet } from '../producer-set.js';
import { REDIAL_ENV } from '../node-start-options.js';

// `tsibase testnet <n>`: a network of n producer nodes on this machine, each a `tsibase node`
// process on its own port and directory, linked to each other, the producers of one chain
// (docs/p2p.md §6.1), for trying out what a real network does: leader loss, followers, pushes
// to any node.

const HOST = 'tsibase.localhost';
const DEFAULT_DATA = 'testnet';
const DEFAULT_FIRST_PORT = 8080;
const MAX_NODES = 21;
/** What the testnet's directory holds besides the nodes: how to start them again (--keep). */
const MANIFEST = 'testnet.json';
/** Blocks between the head and the irreversible block its header names once the producers agree (CFT and BFT alike). */
const SETTLED_LAG = 2;
/** A lost link comes back within a second, not psibase's 30 s: these nodes restart often. */
const REDIAL_MS = '1000';
const START_TIMEOUT_MS = 60_000;

export const TESTNET_USAGE = `usage: tsibase testnet <n> [--data <dir>] [-l <first port>] [--bft] [--keep]

Runs a network of <n> producer nodes on this machine: node p1 on http://${HOST}:<first port>,
p2 on the next port and so on, each a 'tsibase node' process with its data and node.log in
<dir>/p<i>. p1 boots the default bundle (a development chain: anyone may act as any account),
every node links to the others, p1..p<n> become the producers (CFT, or BFT with --bft), and once
blocks are irreversible two behind the head the command prints each node's URL and x-admin URL.
Ctrl-C stops every node. A new testnet replaces the one in <dir>; --keep starts that one again
as it was (with the producers it had then). A link lost is redialled within a second.

options:
      --data <dir>          the testnet's directory (default ./${DEFAULT_DATA})
  -l, --listen <port>       the first node's port (default ${DEFAULT_FIRST_PORT}); the others follow it
      --bft                 the producers run BFT (default CFT)
      --keep                start the testnet in <dir> again instead of a new one`;

interface Manifest { readonly nodes: number; readonly firstPort: number; readonly algorithm: Algorithm }

const nameOf = (i: number) => `p${i + 1}`;
const urlOf = (port: number, label = '') => `http://${label ? `${label}.` : ''}${HOST}:${port}`;

function parseCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_NODES) throw new UsageError(`<n> must be a number of nodes from 1 to ${MAX_NODES}, not '${value}'`);
  return n;
}

function parsePort(value: string | undefined, nodes: number): number {
  if (value === undefined) return DEFAULT_FIRST_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port + nodes - 1 > 65535) throw new UsageError(`-l must be a port from 1 to ${65536 - nodes} (${nodes} ports from it), not '${value}'`);
  return port;
}

function readManifest(data: string): Manifest | undefined {
  const file = join(data, MANIFEST);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Manifest : undefined;
}

/** Deletes the previous testnet in `data`, unless one of its nodes runs (its lock says so). */
function removeTestnet(data: string, previous: Manifest): void {
  const locks = Array.from({ length: previous.nodes }, (_, i) => join(data, nameOf(i))).filter(existsSync).map((dir) => DirectoryLock.take(dir));
  try {
    rmSync(data, { recursive: true, force: true });
  } finally {
    for (const lock of locks) lock.release();
  }
}

/** The manifest of the testnet to run: a new one (replacing the last) or, with --keep, the one in `data`. */
function prepare(data: string, count: number | undefined, port: string | undefined, bft: boolean, keep: boolean): Manifest {
  const previous = readManifest(data);
  if (keep) {
    if (!previous) throw new TsibaseError('CLI_NO_TESTNET', `there is no testnet in ${data} to keep: run 'tsibase testnet <n>' without --keep`);
    if (count !== undefined && count !== previous.nodes) throw new UsageError(`the testnet in ${data} has ${previous.nodes} nodes, not ${count}: give no <n> with --keep, or start a new one without --keep`);
    if (port !== undefined || bft) throw new UsageError(`--keep starts the testnet in ${data} as it was (first port ${previous.firstPort}, ${previous.algorithm}): no -l or --bft with it`);
    return previous;
  }
  if (count === undefined) throw new UsageError(`missing <n>, the number of nodes\n\n${TESTNET_USAGE}`);
  const manifest: Manifest = { nodes: count, firstPort: parsePort(port, count), algorithm: bft ? 'BFT' : 'CFT' };
  if (previous) {
    console.log(`tsibase testnet: replacing the testnet in ${data} (--keep starts it again instead)`);
    removeTestnet(data, previous);
  } else if (existsSync(data) && readdirSync(data).length > 0) {
    throw new TsibaseError('CLI_DATA_IN_USE', `${data} holds files that are no testnet: give another --data directory, or empty it`);
  }
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Fails before any node starts when a node directory is in use or a port taken: the API answering there would be another's. */
async function checkFree(data: string, manifest: Manifest): Promise<void> {
  for (let i = 0; i < manifest.nodes; i++) {
    const dir = join(data, nameOf(i));
    if (existsSync(dir)) DirectoryLock.take(dir).release();
    const port = manifest.firstPort + i;
    await new Promise<void>((done, fail) => {
      const probe = createServer();
      probe.once('error', (err: NodeJS.ErrnoException) => fail(new TsibaseError('CLI_PORT_IN_USE', `port ${port} for ${nameOf(i)} cannot be listened on (${err.code}): stop what uses it, or give another first port with -l`)));
      probe.listen(port, '127.0.0.1', () => probe.close(() => done()));
    });
  }
}

/** Node i's command line: its port and producer name, links to the nodes before it, p1 boots. */
function nodeArgs(manifest: Manifest, i: number): string[] {
  const peers = Array.from({ length: i }, (_, j) => ['--peer', urlOf(manifest.firstPort + j)]).flat();
  const boot = i === 0 ? ['--boot', defaultBundlePath()] : [];
  return ['-l', String(manifest.firstPort + i), '-p', nameOf(i), '--p2p', ...peers, ...boot];
}

function startNode(data: string, manifest: Manifest, i: number): NodeProcess {
  const dir = join(data, nameOf(i));
  mkdirSync(dir, { recursive: true });
  return startNodeProcess(nameOf(i), dir, manifest.firstPort + i, nodeArgs(manifest, i), { [REDIAL_ENV]: REDIAL_MS });
}

/** Whether the node serves a chain (started, booted or synced). */
async function hasChain(node: NodeProcess): Promise<boolean> {
  const status = await adminJson(node, '/native/admin/status') as string[];
  return !status.includes('startup') && !status.includes('needgenesis');
}

/** Waits until every node has the chain and links to all the others. */
async function linked(nodes: readonly NodeProcess[]): Promise<void> {
  for (const node of nodes) {
    await waitFor(`${node.name} has the chain and links to the other ${nodes.length - 1} nodes`, nodes, async () => (
      await hasChain(node) && await metricOf(node, 'tsibase_p2p_links') >= nodes.length - 1 ? true : undefined
    ), START_TIMEOUT_MS);
  }
}

/**
 * Waits until every node serves a producer set in force (`names` when given) and its head names
 * an irreversible block SETTLED_LAG behind it; the set in force.
 */
async function settled(nodes: readonly NodeProcess[], names: readonly string[] | undefined): Promise<ProducerSet> {
  let inForce: ProducerSet | undefined;
  for (const node of nodes) {
    const client = new ChainClient(urlOf(node.port));
    inForce = await waitFor(`${names ? `${names.join(', ')} are` : 'a producer set is'} in force on ${node.name} and its blocks are irreversible ${SETTLED_LAG} behind the head`, nodes, async () => {
      const set = await producerSetOf(client);
      if (set.pending || (names && set.names.join() !== names.join())) return undefined;
      const { headBlock } = await client.graphql('explorer', '{ headBlock { header { blockNum commitNum } } }') as { headBlock: { header: { blockNum: number; commitNum: number } } };
      return headBlock.header.blockNum - headBlock.header.commitNum === SETTLED_LAG ? set : undefined;
    }, START_TIMEOUT_MS);
  }
  return inForce!;
}

function announce(data: string, manifest: Manifest, set: ProducerSet, seconds: number): void {
  console.log(`tsibase testnet: ${manifest.nodes} nodes up in ${seconds.toFixed(1)} s, producers ${set.names.join(', ')} (${set.algorithm}), blocks irreversible ${SETTLED_LAG} behind the head`);
  console.log('a development chain: anyone may act as any account');
  for (let i = 0; i < manifest.nodes; i++) {
    const port = manifest.firstPort + i;
    console.log(`  ${nameOf(i).padEnd(4)} ${`${urlOf(port)}/`.padEnd(32)} ${urlOf(port, 'x-admin')}/   ${join(data, nameOf(i), NODE_LOG)}`);
  }
  console.log(`Ctrl-C stops every node; 'tsibase testnet --keep${data === DEFAULT_DATA ? '' : ` --data ${data}`}' starts them again.`);
}

export async function testnetCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'data' }, { name: 'listen', short: 'l' }, { name: 'bft', flag: true }, { name: 'keep', flag: true }]);
  const [count, extra] = args.positional;
  if (extra) throw new UsageError(`unexpected argument '${extra}'\n\n${TESTNET_USAGE}`);
  const data = option(args, 'data') ?? DEFAULT_DATA;
  const keep = args.options.has('keep');
  const manifest = prepare(resolve(data), parseCount(count), option(args, 'listen'), args.options.has('bft'), keep);
  await checkFree(resolve(data), manifest);
  const started = Date.now();
  const nodes: NodeProcess[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopNodes(nodes));
  const signalled = new Promise<'signal'>((done) => {
    const onSignal = () => {
      console.log('tsibase testnet: stopping every node');
      done('signal');
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  const names = Array.from({ length: manifest.nodes }, (_, i) => nameOf(i));
  const run = async (): Promise<void> => {
    // All at once: the others start while p1 boots, link to it and take the chain it boots.
    for (let i = 0; i < manifest.nodes; i++) nodes.push(startNode(resolve(data), manifest, i));
    // The new producers take over once every one of them has the chain and is linked: before,
    // the change would stall the chain until they are.
    await linked(nodes);
    if (!keep) {
      const client = new ChainClient(urlOf(manifest.firstPort));
      const action = producerSetAction(names.map((name) => ({ name })), manifest.algorithm);
      await client.push([action]);
    }
    // A kept testnet has the producers it was left with.
    const set = await settled(nodes, keep ? undefined : names);
    announce(data, manifest, set, (Date.now() - started) / 1000);
  };
  try {
    const outcome = await Promise.race([run().then(() => 'up' as const), signalled]);
    if (outcome === 'signal') return 0;
    const ended = await Promise.race([signalled, ...nodes.map((n) => n.exited.then((code) => ({ node: n, code })))]);
    if (ended === 'signal') return 0;
    console.error(`tsibase testnet: node ${ended.node.name} exited (${ended.code}); see ${join(ended.node.dir, NODE_LOG)}. Stopping the others.`);
    return 1;
  } finally {
    await stop();
  }
}
