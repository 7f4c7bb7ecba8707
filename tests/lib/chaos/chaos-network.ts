// The producers of a chaos schedule: real node processes, each in a network namespace of its own
// (tests/lib/net-namespaces.ts), every peer link through a TCP proxy of its own
// (tests/lib/link-proxy.ts), so that the kernel can lose what a node sends on a link and the proxy
// can delay, stall, refuse or reset it. The test reaches each node's API through one more proxy,
// on loopback, which no fault touches: the checks see every node even while it is cut off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Claim } from '../../../host-api/types/index.js';
import { writeConfigFile } from '../../../runtime/config/config-file.js';
import { defaultConfig } from '../../../runtime/config/server-config.js';
import { CLEAR_LINK, LinkProxy } from '../link-proxy.js';
import { NodeNamespaces } from '../net-namespaces.js';
import { peersOf, waitUntil } from '../node-network.js';
import { nodeProcessId, startNodeProcess, type RunningNode } from '../node-process.js';
import { generatedClaim, PRODUCER_ENV, setConsensus, setProducers, waitForProducerSet } from '../producer-network.js';
import { within } from './deadline.js';
import { dropEnds, sameConditions, type LinkState } from './link-faults.js';
import type { ChaosSchedule } from './schedule.js';

export const PRODUCER_NAMES = ['prod', 'bprod', 'cprod', 'dprod', 'eprod'];

export interface ChaosNode extends RunningNode {
  readonly index: number;
  /** p0, p1, … as the schedule's steps name it. */
  readonly label: string;
  readonly producer: string;
}

export interface ChaosNetworkOptions {
  /** The nodes log their debug records too (sync's and consensus's every decision), to read a replayed seed by. */
  readonly debugLogs?: boolean;
}


/** How long a node may take to stop on SIGTERM before it is killed (a node busy past its deadlines may not get to it). */
const STOP_MS = 10_000;

async function stopOrKill(node: RunningNode): Promise<void> {
  const stopped = node.stop().catch(() => undefined);
  try {
    await within(STOP_MS, `${node.api} stopping`, stopped);
  } catch {
    // The node process first, then its supervisor (which would start it again).
    const kill = (pid: () => number) => {
      try {
        process.kill(pid(), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    };
    kill(() => nodeProcessId(node));
    kill(() => node.process.pid!);
    await stopped;
  }
}

/** The networks started and not yet stopped: stopNetworks ends them when the process is asked to stop. */
const running = new Set<ChaosNetwork>();

/** Stops every network still running (a runner that gets SIGINT or SIGTERM leaves no nodes and no namespaces behind). */
export async function stopNetworks(): Promise<void> {
  await Promise.all([...running].map((network) => network.stop()));
}

export class ChaosNetwork {
  private kernelDrops = new Set<string>();

  private constructor(
    readonly schedule: ChaosSchedule,
    readonly nodes: ChaosNode[],
    private readonly linkProxies: LinkProxy[],
    private readonly apiProxies: LinkProxy[],
    private readonly namespaces: NodeNamespaces,
    private readonly options: ChaosNetworkOptions,
  ) {}

  /**
   * Starts the schedule's producers in `dir` (node 0 boots the chain from `bootBundle`, the others sync from it),
   * makes them the producer set under the schedule's consensus and waits until it is in force.
   */
  static async start(dir: string, schedule: ChaosSchedule, bootBundle: Uint8Array, options: ChaosNetworkOptions = {}): Promise<ChaosNetwork> {
    const namespaces = NodeNamespaces.create(schedule.producers);
    const network = new ChaosNetwork(schedule, [], [], [], namespaces, options);
    running.add(network);
    try {
      const bundle = join(dir, 'test.bundle');
      writeFileSync(bundle, bootBundle);
      const ports: number[] = [];
      for (let i = 0; i < schedule.producers; i++) {
        const peers: string[] = [];
        for (const [index, [a, b]] of schedule.links.entries()) {
          if (a !== i) continue;
          // Node a dials b; the proxy meets a at a's link address for b, and b at b's for a.
          const proxy = await LinkProxy.start({
            listenHost: namespaces.linkAddress(a, b),
            targetHost: namespaces.namespaces[b]!.nodeAddress,
            targetPort: ports[b]!,
            localAddress: namespaces.linkAddress(b, a),
          });
          network.linkProxies[index] = proxy;
          peers.push('--peer', proxy.url);
        }
        const node = await network.startNode(dir, i, [...(i === 0 ? ['--boot', bundle] : []), ...peers]);
        ports.push(node.nodePort);
      }
      const degree = (i: number) => schedule.links.filter(([a, b]) => a === i || b === i).length;
      await waitUntil('every link up', async () => (await Promise.all(network.nodes.map(peersOf))).every((peers, i) => peers.length === degree(i)), 60_000);
      if (schedule.algorithm === 'cft') {
        await setProducers(network.nodes[0]!, PRODUCER_NAMES.slice(0, schedule.producers));
      } else {
        const claims: Claim[] = [];
        for (const node of network.nodes) claims.push(await generatedClaim(node));
        await setConsensus(network.nodes[0]!, 'BftConsensus', PRODUCER_NAMES.slice(0, schedule.producers), claims);
      }
      await waitForProducerSet(network.nodes, PRODUCER_NAMES.slice(0, schedule.producers));
      return network;
    } catch (err) {
      await network.stop();
      throw err;
    }
  }

  /** Node `index` in its namespace, its API on a loopback proxy; `nodePort` is where it listens there. */
  private async startNode(dir: string, index: number, args: string[]): Promise<ChaosNode & { nodePort: number }> {
    const ns = this.namespaces.namespaces[index]!;
    const nodeDir = join(dir, `p${index}`);
    mkdirSync(nodeDir, { recursive: true });
    if (this.options.debugLogs) {
      const config = defaultConfig();
      writeConfigFile(nodeDir, { ...config, loggers: { console: { ...(config.loggers.console as object), filter: 'Severity >= debug' } } });
    }
    const env = { ...PRODUCER_ENV, PSIBASE_ADMIN_IP: ns.hostAddress };
    const listen = ['-l', `${ns.nodeAddress}:0`, '-p', PRODUCER_NAMES[index]!, '--p2p', '--block-interval', String(this.schedule.blockMs)];
    const started = await startNodeProcess(nodeDir, [...listen, ...args], env, ns.launcher);
    const nodePort = Number(started.port);
    const api = await LinkProxy.start({ listenHost: '127.0.0.1', targetHost: ns.nodeAddress, targetPort: nodePort, localAddress: ns.hostAddress });
    this.apiProxies.push(api);
    const node = { ...started, api: `http://tsibase.localhost:${api.port}`, port: String(api.port), index, label: `p${index}`, producer: PRODUCER_NAMES[index]!, nodePort };
    this.nodes.push(node);
    return node;
  }

  /** Makes the links what `state` says: kernel rules and proxy conditions, changed where they differ. */
  apply(state: LinkState): void {
    for (const key of new Set([...this.kernelDrops, ...state.kernelDrops])) {
      const [from, to] = dropEnds(key);
      this.namespaces.setDropped(from, to, state.kernelDrops.has(key));
    }
    this.kernelDrops = new Set(state.kernelDrops);
    state.proxies.forEach((conditions, i) => {
      const proxy = this.linkProxies[i]!;
      if (!sameConditions(proxy.current, conditions)) proxy.set(conditions);
    });
  }

  /** Resets every connection of link `index` once. */
  cut(index: number): void {
    this.linkProxies[index]!.cut();
  }

  /** Every fault lifted. */
  heal(): void {
    this.apply({ kernelDrops: new Set(), proxies: this.linkProxies.map(() => CLEAR_LINK) });
  }

  /** Stops the nodes, then the proxies, then removes the namespaces (also after a failure). */
  async stop(): Promise<void> {
    running.delete(this);
    await Promise.all(this.nodes.map(stopOrKill));
    await Promise.all([...this.linkProxies, ...this.apiProxies].map((p) => p?.close().catch(() => undefined)));
    this.namespaces.destroy();
  }
}
