import { Random } from './random.js';
import { EventQueue } from './event-queue.js';
import { compareOrder } from '../sync/block-header.js';
import { InvariantChecker } from './invariants.js';
import { DurableChain } from './model-chain.js';
import { consensusText, modelSetOf, sameSet, startingConsensus } from './model-consensus.js';
import { convergenceBoundMs, drawSchedule, electsLeaders, livenessBoundMs, type Schedule } from './schedule.js';
import { SimNetwork } from './sim-network.js';
import { makeDriver } from './sim-consensus.js';
import type { DriverFactory } from './sim-context.js';
import { SimNode } from './sim-node.js';

// One seeded run of block sync and CFT or BFT (docs/p2p.md "What we build" item 7): one producer
// or several taking the lead, and followers, on a virtual clock, with the faults of the schedule
// and its Byzantine producers, the invariants checked after every step on the honest nodes; at
// the end every honest node at the best head within the stated bound and, with several
// producers, irreversibility moved on after the faults.

export interface SimulationResult {
  readonly seed: number;
  readonly steps: number;
  readonly violations: readonly string[];
}

export interface SimulationOptions {
  /** Makes each node's consensus driver (a test makes one with a deliberate bug the checks must find). */
  readonly makeDriver?: DriverFactory;
}

export function runSimulation(seed: number, options: SimulationOptions = {}): SimulationResult {
  const schedule = drawSchedule(seed);
  const queue = new EventQueue();
  const random = new Random(seed ^ 0x5eed5eed);
  const logs = [...Array(schedule.nodeCount)].map(() => new DurableChain());
  const checker = new InvariantChecker(() => queue.now);
  const nodes: SimNode[] = [];
  const wantedProducers = () => {
    const change = schedule.producerChanges.filter((c) => c.at <= queue.now).at(-1);
    return change && modelSetOf(change);
  };
  // The network dials only once the clock runs, so the nodes may be made after it (BFT's announce at once).
  const network = new SimNetwork(queue, random, schedule, nodes);
  const context = { queue, random, schedule, checker, network: () => network, node: (i: number) => nodes[i]!, wantedProducers, makeDriver: options.makeDriver ?? makeDriver };
  nodes.push(...logs.map((log, i) => new SimNode(i, `n${i}`, log, context)));
  scheduleFaults(schedule, queue, nodes, network);
  // Slots run until stopAt, or with CFT until the liveness bound after the faults if that is later.
  let lastSlot = schedule.stopAt;
  const slot = (t: number) => queue.at(t, () => {
    for (const node of nodes) node.produce();
    if (t + schedule.blockIntervalMs <= lastSlot) slot(t + schedule.blockIntervalMs);
  });
  slot(0);
  // Consensus among producers (CFT or BFT) must move irreversibility on after the faults.
  const consensus = electsLeaders(schedule);
  let committedWhenQuiet = 0;
  let livenessBy = Infinity;
  queue.at(schedule.quietAt, () => {
    committedWhenQuiet = checker.highestCommitted;
    if (!consensus) return;
    const largest = Math.max(...nodes.filter((n) => !n.byzantine).map((n) => n.consensusTimeoutMs ?? 0));
    livenessBy = schedule.quietAt + livenessBoundMs(schedule, largest);
    lastSlot = Math.max(lastSlot, livenessBy);
  });

  let steps = 0;
  while (queue.runNext(lastSlot)) steps++;
  if (consensus && checker.highestCommitted <= committedWhenQuiet) {
    checker.fail(`no block became irreversible within ${livenessBy - schedule.quietAt} ms of the end of the faults (still block ${committedWhenQuiet})`);
  }
  // The best head any honest node holds: production has stopped, so every honest node must come to it.
  const honest = nodes.filter((n) => !n.byzantine);
  const best = honest.map((n) => n.head!).reduce((a, b) => (compareOrder(b, a) > 0 ? b : a));
  // Every change asked for was made: the last set asked for is the one in force, joint consensus over.
  const last = schedule.producerChanges.at(-1);
  const wanted = last && modelSetOf(last);
  const inForce = best.consensus && startingConsensus(best.consensus, best.commitNum);
  if (wanted && (!inForce || inForce.next || !sameSet(inForce, wanted))) {
    checker.fail(`the producers asked for last, ${wanted.producers.join(',')} (${last.algorithm}), are not the set in force at the best head ${best.num}: ${inForce ? consensusText(inForce) : 'no change made'}`);
  }
  const bound = convergenceBoundMs(schedule, best.num);
  const deadline = lastSlot + bound;
  const behind = () => honest.filter((n) => n.head?.id !== best.id);
  while (behind().length > 0 && queue.runNext(deadline)) steps++;
  for (const node of behind()) {
    checker.fail(`${node.name} is at ${node.head?.num} ${node.head?.id}, not the best head ${best.num} ${best.id}, ${bound} ms after the last block`);
  }
  return { seed, steps, violations: checker.violations };
}

function scheduleFaults(schedule: Schedule, queue: EventQueue, nodes: readonly SimNode[], network: SimNetwork): void {
  for (const fault of schedule.faults) {
    if (fault.kind === 'crash') {
      const node = nodes[fault.node]!;
      queue.at(fault.at, () => {
        if (!node.alive) return;
        node.crash();
        network.crash(node.index);
        queue.after(fault.duration, () => {
          node.restart();
          network.routesChanged();
        });
      });
    } else {
      queue.at(fault.at, () => network.partition(fault.side));
      queue.at(fault.at + fault.duration, () => network.heal());
    }
  }
}
