// A network of real node processes on free loopback ports, linked as peers (docs/p2p.md §1),
// and waiting on what their HTTP APIs say by polling, never by fixed sleeps.
import { join } from 'node:path';
import type { Peer } from '../../runtime/admin/node-control.js';
import type { HttpReply } from '../../runtime/cli/client.js';
import { adminRequest } from './admin-requests.js';
import { startNode, startNodeProcess, type RunningNode } from './node-process.js';

export interface NetworkNode extends RunningNode {
  readonly name: string;
  /** The node directory. */
  readonly dir: string;
  /** The URL its peers dial: `http://127.0.0.1:<port>`. */
  readonly url: string;
}

export interface NetworkOptions {
  /** Node arguments after the listener, by node index; default `--p2p` for every node. */
  readonly args?: (index: number) => string[];
  /** Variables added to every node's environment. */
  readonly env?: NodeJS.ProcessEnv;
}

function asNetworkNode(node: RunningNode, name: string, dir: string): NetworkNode {
  return { ...node, name, dir, url: `http://127.0.0.1:${node.port}` };
}

/** Starts `count` nodes (`n0`, `n1`, …) in `dir`, one after the other (the machine has few cores). */
export async function startNetwork(dir: string, count: number, options: NetworkOptions = {}): Promise<NetworkNode[]> {
  const nodes: NetworkNode[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `n${i}`;
      const nodeDir = join(dir, name);
      nodes.push(asNetworkNode(await startNode(nodeDir, options.args?.(i) ?? ['--p2p'], options.env), name, nodeDir));
    }
  } catch (err) {
    await stopNetwork(nodes);
    throw err;
  }
  return nodes;
}

/** Starts a node again on its directory and port (after it stopped or was killed). */
export async function restartNode(node: NetworkNode, args: string[] = ['--p2p'], env: NodeJS.ProcessEnv = {}): Promise<NetworkNode> {
  return asNetworkNode(await startNodeProcess(node.dir, ['-l', `127.0.0.1:${node.port}`, ...args], env), node.name, node.dir);
}

export async function stopNetwork(nodes: readonly RunningNode[]): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop()));
}

/** `GET /native/admin/peers`. */
export async function peersOf(node: RunningNode): Promise<Peer[]> {
  const reply = await adminRequest(node, '/native/admin/peers');
  if (reply.status !== 200) throw new Error(`peers: ${reply.status} ${reply.text()}`);
  return reply.json() as Peer[];
}

/** `POST /native/admin/connect` from `from` to `to`'s URL. */
export function connectPeer(from: RunningNode, to: NetworkNode | string): Promise<HttpReply> {
  return adminRequest(from, '/native/admin/connect', { json: { url: typeof to === 'string' ? to : to.url } });
}

/** `POST /native/admin/disconnect`. */
export function disconnectPeer(node: RunningNode, id: unknown): Promise<HttpReply> {
  return adminRequest(node, '/native/admin/disconnect', { json: { id } });
}

/** Links each node to the next (n0→n1, n1→n2, …) and waits until every link is up on both ends. */
export async function linkInLine(nodes: readonly NetworkNode[]): Promise<void> {
  for (let i = 0; i + 1 < nodes.length; i++) {
    const reply = await connectPeer(nodes[i]!, nodes[i + 1]!);
    if (reply.status !== 200) throw new Error(`connect ${nodes[i]!.name} to ${nodes[i + 1]!.name}: ${reply.status} ${reply.text()}`);
  }
  const linksOf = (i: number) => (i > 0 ? 1 : 0) + (i < nodes.length - 1 ? 1 : 0);
  await Promise.all(nodes.map((node, i) => waitForPeers(node, (peers) => peers.length === linksOf(i), `${linksOf(i)} links in the line`)));
}

/**
 * Polls `probe` (every 50 ms, for up to `timeoutMs`) until it answers something other than
 * undefined or false; that answer. An error names what was awaited and the last answer.
 */
export async function waitUntil<T>(what: string | (() => string), probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const answer = await probe();
      if (answer !== undefined && answer !== false) return answer;
      last = answer;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}; last answer: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the node's peers satisfy `predicate`; those peers. */
export function waitForPeers(node: NetworkNode | RunningNode, predicate: (peers: Peer[]) => boolean, what: string): Promise<Peer[]> {
  const name = 'name' in node ? node.name : node.api;
  let last: Peer[] = [];
  return waitUntil(() => `${name}: ${what} (peers were ${JSON.stringify(last)})`, async () => {
    last = await peersOf(node);
    return predicate(last) ? last : undefined;
  });
}

/** Waits until the node's output holds `text` (a log line); the output. */
export function waitForOutput(node: RunningNode, text: string | RegExp): Promise<string> {
  return waitUntil(`output ${String(text)}`, async () => {
    const output = node.output();
    return (typeof text === 'string' ? output.includes(text) : text.test(output)) ? output : undefined;
  });
}
