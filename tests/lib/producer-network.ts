// Producer nodes of a CFT or BFT network for the integration tests (docs/p2p.md §4, §6.1): started with
// what it takes to restart them on their directory and port, their head header as the explorer
// serves it, and the change of producers or of consensus (unsigned, the empty claim, unless claims are given).
import { systemAction } from '../../host-api/boot/system-actions.js';
import { hexToBytes } from '../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { Claim } from '../../host-api/types/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import type { Key } from '../../runtime/keys/node-keys.js';
import { adminRequest } from './admin-requests.js';
import { waitUntil } from './node-network.js';
import { startNode, startNodeProcess, type RunningNode } from './node-process.js';

/** Lost links come back within a fraction of a second, not psibase's 30 s. */
export const PRODUCER_ENV = { TSIBASE_P2P_REDIAL_MS: '200' };

/** A producer node with what it takes to start it again on its directory and port. */
export interface ProducerNode extends RunningNode {
  readonly dir: string;
  readonly args: string[];
  /** Variables added to its environment, at every start. */
  readonly env: NodeJS.ProcessEnv;
}

export interface HeadHeader {
  readonly blockNum: number;
  readonly commitNum: number;
  readonly term: number;
  readonly producer: string;
}

export const clientOf = (node: RunningNode) => new ChainClient(node.api);
export const urlOf = (node: RunningNode) => `http://127.0.0.1:${node.port}`;

/**
 * Starts a node with `args` (its producer name, peers, …), accepting links, with `blockMs` slots;
 * `env` adds to its environment (PRODUCER_ENV is there already).
 */
export async function startProducer(dir: string, args: string[], blockMs: string, env: NodeJS.ProcessEnv = {}): Promise<ProducerNode> {
  const common = ['--p2p', '--block-interval', blockMs];
  const fullEnv = { ...PRODUCER_ENV, ...env };
  const node = await startNode(dir, [...args, ...common], fullEnv);
  return { ...node, dir, args: ['-l', `127.0.0.1:${node.port}`, ...args, ...common], env: fullEnv };
}

/** Starts a stopped or killed producer again on its directory and port. */
export async function restartProducer(node: ProducerNode): Promise<ProducerNode> {
  return { ...(await startNodeProcess(node.dir, node.args, node.env)), dir: node.dir, args: node.args, env: node.env };
}

/** The head block's header, from the explorer. */
export async function headerOf(node: RunningNode): Promise<HeadHeader> {
  const { headBlock } = await clientOf(node).graphql('explorer', '{ headBlock { header { blockNum commitNum term producer } } }') as { headBlock: { header: HeadHeader } };
  return headBlock.header;
}

/**
 * producers::setProducers with these names, each with its claim in `claims` (the empty claim
 * when there is none), pushed to `node` (applied).
 */
export async function setProducers(node: RunningNode, names: readonly string[], claims: readonly Claim[] = []): Promise<void> {
  await clientOf(node).push([systemAction('producers', 'producers.setProducers', { prods: producerList(names, claims) })], { waitFor: 'applied' });
}

/**
 * producers::setConsensus: these names under `algorithm` ('CftConsensus' or 'BftConsensus'), each
 * with its claim in `claims` (the empty claim when there is none), pushed to `node` (applied).
 */
export async function setConsensus(node: RunningNode, algorithm: 'CftConsensus' | 'BftConsensus', names: readonly string[], claims: readonly Claim[] = []): Promise<void> {
  await clientOf(node).push([systemAction('producers', 'producers.setConsensus', { consensus: { [algorithm]: { producers: producerList(names, claims) } } })], { waitFor: 'applied' });
}

function producerList(names: readonly string[], claims: readonly Claim[]) {
  const claimless = { service: 0n, rawData: new Uint8Array(0) };
  return names.map((name, i) => ({ name, auth: claims[i] ?? claimless }));
}

/** A verify-sig key generated in the node's key store, as a producer claim (its blocks and messages are signed). */
export async function generatedClaim(node: RunningNode): Promise<Claim> {
  const generated = await adminRequest(node, '/native/admin/keys', { json: { service: 'verify-sig' } });
  if (generated.status !== 200) throw new Error(`a key for ${node.api}: ${generated.status} ${generated.text()}`);
  return { service: accountNumberFromName('verify-sig'), rawData: hexToBytes((generated.json() as Key).rawData) };
}

/** A figure of the node's metrics (`/native/admin/metrics`); NaN when it has none of that name. */
export async function metricOf(node: RunningNode, name: string): Promise<number> {
  const metrics = (await adminRequest(node, '/native/admin/metrics')).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
}

/** The node's irreversible block, as its metrics say. */
export function irreversibleOf(node: RunningNode): Promise<number> {
  return metricOf(node, 'tsibase_irreversible_block_number');
}

/** Waits until every node serves `names` as the current producers, with no change pending (joint consensus over). */
export async function waitForProducerSet(nodes: readonly RunningNode[], names: readonly string[]): Promise<void> {
  for (const node of nodes) {
    await waitUntil(`${names.join(', ')} in force on ${node.api}`, async () => {
      const { jointStart, producers } = await clientOf(node).graphql('producers', '{ jointStart producers { name } }') as { jointStart: number | null; producers: { name: string }[] };
      return jointStart === null && producers.map((p) => p.name).join() === names.join();
    }, 40_000);
  }
}

/** Waits until the node's head commits a block past `num` with a lag of at most 3; returns that head. */
export function committedPast(node: RunningNode, num: number, what: string, timeoutMs = 60_000): Promise<HeadHeader> {
  return waitUntil(what, async () => {
    const header = await headerOf(node);
    return header.commitNum > num && header.blockNum - header.commitNum <= 3 ? header : undefined;
  }, timeoutMs);
}
