// bench/consensus: a 3-producer CFT network of real node processes on loopback (docs/p2p.md §4).
// Push-to-final latency: signed transfers pushed round the three nodes with wait_for=final, a few
// a second, each timed until its answer; p50 and p99 at 1 s blocks and at 250 ms blocks. And
// signed transfers per second through the network's leader (wait_for=applied) next to one node
// alone, in the same run, with bench/chain's load: the followers re-execute every block and check
// every transaction's signature on the same cores. What each node, and each of its threads, spent
// a transfer in the measured window is printed beside it (the machine may be shared: that
// figure does not depend on it), with the cores all of it kept busy.
// Targets: push-to-final p50 ≤ 2.5 s at 1 s blocks, ≤ 0.75 s at 250 ms; the network at least
// 0.8 × one node's rate.
// Run: make bench (needs build/default.bundle and build/services/tokens.wasm from make services).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeProcessId, startNode, type RunningNode } from '../../tests/lib/node-process.js';
import { headerOf, type ProducerNode } from '../../tests/lib/producer-network.js';
import { SECONDS, closedLoopRate } from '../lib/closed-loop.js';
import { threadGroupSeconds } from '../lib/cpu-time.js';
import { formatRate } from '../lib/measure.js';
import { BUNDLE, PRODUCERS, allCaughtUp, leaderOf, quantile, startNetwork } from '../lib/producer-network.js';
import { CONCURRENCY, preparedTransfers, transferPusher } from '../lib/transfers.js';
import { closedLoopTransfers, verifiesPerSecond } from '../lib/verify-rate.js';

/** Block intervals measured, with the push-to-final p50 target at each (seconds). */
const LATENCY_RUNS = [{ blockMs: 1000, target: 2.5 }, { blockMs: 250, target: 0.75 }];
/** Pushes a second, round the nodes, for LATENCY_SECONDS: few enough to leave the blocks small. */
const PUSHES_PER_SECOND = 6;
const LATENCY_SECONDS = 12;
/** Enough transfers for the closed loop's warm-up and window, however fast the node is. */
const LOAD_TRANSFERS = closedLoopTransfers(verifiesPerSecond());

interface Latencies { readonly all: number[]; readonly leader: number[]; readonly followers: number[] }

/**
 * Pushes `bodies` with wait_for=final round the nodes, PUSHES_PER_SECOND on average (open loop:
 * the next leaves on time whatever the last one's answer; each at a random point of its turn so
 * that the pushes fall evenly over the block slots), one request per connection so no answer
 * waits behind another's; each one's seconds from push to answer.
 */
async function finalLatencies(nodes: readonly ProducerNode[], bodies: readonly Uint8Array[]): Promise<Latencies> {
  const leader = await leaderOf(nodes);
  const pushers = nodes.map((node, i) => transferPusher(node.api, bodies.filter((_, j) => j % nodes.length === i), { waitFor: 'final', pipelining: 1 }));
  const byLeader: number[] = [], byFollowers: number[] = [];
  const start = performance.now();
  try {
    await Promise.all(bodies.map(async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, start + ((i + Math.random()) * 1000) / PUSHES_PER_SECOND - performance.now()));
      const node = i % nodes.length;
      const pushed = performance.now();
      await pushers[node]!.push();
      (nodes[node] === leader ? byLeader : byFollowers).push((performance.now() - pushed) / 1000);
    }));
  } finally {
    await Promise.all(pushers.map((p) => p.close()));
  }
  return { all: [...byLeader, ...byFollowers], leader: byLeader, followers: byFollowers };
}

/** The network's rate as a share of one node's that is the target. */
const RATE_TARGET = 0.8;

/** CPU milliseconds per transfer in the measured window of one process: in all, and by thread group (cpu-time.ts). */
interface NodeCpu {
  readonly label: string;
  readonly total: number;
  readonly groups: ReadonlyMap<string, number>;
}

interface LoadResult {
  readonly perSecond: number;
  readonly nodes: NodeCpu[];
  /** This process's CPU milliseconds per transfer (the client pushing them). */
  readonly client: number;
}

/**
 * Transfers per second with bench/chain's closed loop pushing `bodies` to `target`, and the CPU
 * each of `nodes` spent per transfer meanwhile, by thread: the machine is shared, so the CPU a
 * transfer costs says what the rate alone cannot.
 */
async function transferRate(target: RunningNode, nodes: readonly { label: string; node: RunningNode }[], bodies: readonly Uint8Array[]): Promise<LoadResult> {
  const pusher = transferPusher(target.api, bodies);
  const pids = nodes.map(({ node }) => nodeProcessId(node));
  let before: Map<string, number>[] = [], spent: Map<string, number>[] = [];
  let clientBefore = process.cpuUsage(), client = clientBefore;
  try {
    const perSecond = await closedLoopRate(CONCURRENCY, pusher.push, {
      onStart: () => { before = pids.map(threadGroupSeconds); clientBefore = process.cpuUsage(); },
      onEnd: () => {
        client = process.cpuUsage(clientBefore);
        spent = pids.map((pid, i) => new Map([...threadGroupSeconds(pid)].map(([group, s]) => [group, s - (before[i]!.get(group) ?? 0)])));
      },
    });
    const perTransfer = (seconds: number) => (seconds * 1000) / (perSecond * SECONDS);
    return {
      perSecond,
      nodes: spent.map((groups, i) => ({
        label: nodes[i]!.label,
        total: perTransfer([...groups.values()].reduce((a, b) => a + b, 0)),
        groups: new Map([...groups].map(([group, s]) => [group, perTransfer(s)])),
      })),
      client: perTransfer((client.user + client.system) / 1e6),
    };
  } finally {
    await pusher.close();
  }
}

/** Thread groups in the order printed; any other group is summed into `other`. */
const GROUPS = ['main', 'sig-verify', 'node', 'libuv', 'v8'];

/** Prints the CPU per transfer of each process, by thread group, and the cores the run kept busy. */
function printCpu(runs: readonly { name: string; result: LoadResult }[]): void {
  const ms = (v: number) => v.toFixed(3).padStart(10);
  console.log("CPU ms a transfer in the measured window, by process and thread group (sig-verify: the signature workers; node: Node's platform threads, V8's GC and compiler)");
  console.log(`${''.padEnd(38)}${'all'.padStart(10)}${[...GROUPS, 'other'].map((g) => g.padStart(11)).join('')}`);
  for (const { name, result } of runs) {
    for (const node of result.nodes) {
      const other = [...node.groups].filter(([g]) => !GROUPS.includes(g)).reduce((a, [, v]) => a + v, 0);
      console.log(`  ${`${name}: ${node.label}`.padEnd(36)}${ms(node.total)}${GROUPS.map((g) => ` ${ms(node.groups.get(g) ?? 0)}`).join('')} ${ms(other)}`);
    }
    const nodes = result.nodes.reduce((a, n) => a + n.total, 0);
    console.log(`  ${`${name}: client (this process)`.padEnd(36)}${ms(result.client)}`);
    console.log(`  ${`${name}: all, and cores kept busy`.padEnd(36)}${ms(nodes + result.client)}  (${(((nodes + result.client) * result.perSecond) / 1000).toFixed(2)} of ${availableParallelism()} cores)`);
  }
}

const line = (label: string, figure: string, note = '') => console.log(`${label.padEnd(48)} ${figure.padStart(12)}${note}`);
const seconds = (s: number) => `${s.toFixed(2)} s`;

const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-consensus-'));
try {
  console.log(`bench/consensus (node ${process.version}); ${PRODUCERS.length} CFT producers on loopback, ${PUSHES_PER_SECOND} pushes/s for ${LATENCY_SECONDS} s per block interval`);
  let network: LoadResult | undefined;
  let rateTerms = 0;
  for (const [run, { blockMs, target }] of LATENCY_RUNS.entries()) {
    const nodes = await startNetwork(join(dir, `${blockMs}ms`), blockMs);
    try {
      // The rate is measured on the first network (1 s blocks, as the lone node's): its transfers
      // are signed with the others, as the accounts are set up once per chain.
      const latencyPushes = PUSHES_PER_SECOND * LATENCY_SECONDS;
      const bodies = await preparedTransfers(nodes[0]!.api, latencyPushes + (run === 0 ? LOAD_TRANSFERS : 0));
      await allCaughtUp(nodes);
      const termBefore = (await headerOf(nodes[0]!)).term;
      const latencies = await finalLatencies(nodes, bodies.slice(0, latencyPushes));
      // A new term is an election: its pushes wait for it (slots stopped for an election timeout).
      const newTerms = (await headerOf(nodes[0]!)).term - termBefore;
      const p50 = quantile(latencies.all, 0.5);
      line(`push to final at ${blockMs} ms blocks, p50`, seconds(p50), `  (target ≤ ${seconds(target)}: ${p50 <= target ? 'met' : 'NOT met'}; at the leader ${seconds(quantile(latencies.leader, 0.5))}, at a follower ${seconds(quantile(latencies.followers, 0.5))})`);
      line(`push to final at ${blockMs} ms blocks, p99`, seconds(quantile(latencies.all, 0.99)), `  (${latencies.all.length} pushes; new terms meanwhile: ${newTerms})`);
      if (run === 0) {
        const leader = await leaderOf(nodes);
        // The leader first, then the followers.
        const labelled = [leader, ...nodes.filter((n) => n !== leader)].map((node, i) => ({
          label: `${i === 0 ? 'leader' : 'follower'} ${PRODUCERS[nodes.indexOf(node)]}`, node,
        }));
        const rateTermBefore = (await headerOf(leader)).term;
        network = await transferRate(leader, labelled, bodies.slice(latencyPushes));
        // An election meanwhile moves the pushes to a node that passes them on: the rate means little then.
        rateTerms = (await headerOf(leader)).term - rateTermBefore;
      }
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  }
  const alone = await startNode(join(dir, 'alone'), ['-p', PRODUCERS[0]!, '--boot', BUNDLE]);
  let one: LoadResult;
  try {
    one = await transferRate(alone, [{ label: `alone ${PRODUCERS[0]}`, node: alone }], await preparedTransfers(alone.api, LOAD_TRANSFERS));
  } finally {
    await alone.stop();
  }
  const ratio = network!.perSecond / one.perSecond;
  const networkCpu = network!.nodes.reduce((a, n) => a + n.total, 0);
  line('signed transfers, one node alone', formatRate(one.perSecond), ` /s  (node CPU ${one.nodes[0]!.total.toFixed(3)} ms a transfer)`);
  line(`signed transfers, ${PRODUCERS.length}-producer network (to its leader)`, formatRate(network!.perSecond),
    ` /s  (${ratio.toFixed(2)} × one node; target ${RATE_TARGET}: ${ratio >= RATE_TARGET ? 'met' : 'NOT met'}; nodes' CPU ${networkCpu.toFixed(3)} ms a transfer, ${(networkCpu / one.nodes[0]!.total).toFixed(2)} × one node's; new terms meanwhile: ${rateTerms})`);
  printCpu([{ name: 'one node', result: one }, { name: 'network', result: network! }]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
