// A three-producer CFT network of real node processes on loopback for the benchmarks
// (docs/p2p.md §4), shared by bench/consensus and bench/churn: started fully linked with the
// producer set in force, its leader, and a wait for every node to hold the same blocks.
import { join } from 'node:path';
import { peersOf, waitUntil } from '../../tests/lib/node-network.js';
import { headerOf, setProducers, startProducer, urlOf, waitForProducerSet, type ProducerNode } from '../../tests/lib/producer-network.js';

export const PRODUCERS = ['prod', 'bprod', 'cprod'];
export const BUNDLE = join(process.cwd(), 'build', 'default.bundle');

/** Three producers, fully linked, with the producer set in force (joint consensus over). */
export async function startNetwork(dir: string, blockMs: number): Promise<ProducerNode[]> {
  const ms = String(blockMs);
  const nodes: ProducerNode[] = [];
  try {
    nodes.push(await startProducer(join(dir, 'a'), ['-p', PRODUCERS[0]!, '--boot', BUNDLE], ms));
    nodes.push(await startProducer(join(dir, 'b'), ['-p', PRODUCERS[1]!, '--peer', urlOf(nodes[0]!)], ms));
    nodes.push(await startProducer(join(dir, 'c'), ['-p', PRODUCERS[2]!, '--peer', urlOf(nodes[0]!), '--peer', urlOf(nodes[1]!)], ms));
    await waitUntil('three links each', async () => (await Promise.all(nodes.map(peersOf))).every((p) => p.length === 2));
    await setProducers(nodes[0]!, PRODUCERS);
    await waitForProducerSet(nodes, PRODUCERS);
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
  return nodes;
}

/** The node whose producer made the head block. */
export async function leaderOf(nodes: readonly ProducerNode[]): Promise<ProducerNode> {
  const { producer } = await headerOf(nodes[0]!);
  const leader = nodes[PRODUCERS.indexOf(producer)];
  if (!leader) throw new Error(`the head was made by ${producer}, not one of ${PRODUCERS.join(', ')}`);
  return leader;
}

/** Every node has the blocks the leader had when asked (the accounts and balances for the transfers). */
export async function allCaughtUp(nodes: readonly ProducerNode[]): Promise<void> {
  // A transfer applied on one node is in a block at most one past its head.
  const holding = Math.max(...(await Promise.all(nodes.map(headerOf))).map((h) => h.blockNum)) + 1;
  for (const node of nodes) await waitUntil(`block ${holding} on ${node.api}`, async () => (await headerOf(node)).blockNum >= holding);
}

/** The `p` quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}
