import { Random } from '../../testing/random.js';
import { EventQueue } from './event-queue.js';
import { compareOrder } from '../sync/block-header.js';
import { InvariantChecker } from './invariants.js';
import { DurableChain } from './model-chain.js';
import { convergenceBoundMs, drawSchedule, type Schedule } from './schedule.js';
import { SimNetwork } from './sim-network.js';
import { SimNode } from './sim-node.js';

// One seeded run of block sync and CFT (docs/p2p.md "What we build" item 7): one producer or
// several electing leaders, and followers, on a virtual clock, with the faults of the schedule,
// the invariants checked after every step; at the end every node at the best head within the
// stated bound and, with several producers, irreversibility moved on after the faults.

export interface SimulationResult {
  readonly seed: number;
  readonly steps: number;
  readonly violations: readonly string[];
}

export function runSimulation(seed: number): SimulationResult {
  const schedule = drawSchedule(seed);
  const queue = new EventQueue();
  const random = new Random(seed ^ 0x5eed5eed);
  const logs = [...Array(schedule.nodeCount)].map(() => new DurableChain());
  const checker = new InvariantChecker(() => queue.now);
  let network: SimNetwork | undefined;
  const nodes: SimNode[] = [];
  const context = { queue, random, schedule, checker, network: () => network!, node: (i: number) => nodes[i]! };
  nodes.push(...logs.map((log, i) => new SimNode(i, `n${i}`, log, context)));
  network = new SimNetwork(queue, random, schedule, nodes);
  scheduleFaults(schedule, queue, nodes, network);
  for (let t = 0; t <= schedule.stopAt; t += schedule.blockIntervalMs) {
    queue.at(t, () => { for (const node of nodes.slice(0, schedule.producerCount)) node.produce(); });
  }
  let committedWhenQuiet = 0;
  queue.at(schedule.quietAt, () => { committedWhenQuiet = checker.highestCommitted; });

  let steps = 0;
  while (queue.runNext(schedule.stopAt)) steps++;
  if (schedule.producerCount > 1 && checker.highestCommitted <= committedWhenQuiet) {
    checker.fail(`no block became irreversible between the end of the faults (block ${committedWhenQuiet}) and the last slot`);
  }
  // The best head any node holds: production has stopped, so every node must come to it.
  const best = nodes.map((n) => n.head!).reduce((a, b) => (compareOrder(b, a) > 0 ? b : a));
  const bound = convergenceBoundMs(schedule, best.num);
  const deadline = schedule.stopAt + bound;
  const behind = () => nodes.filter((n) => n.head?.id !== best.id);
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
        queue.after(fault.duration, () => node.restart());
      });
    } else {
      queue.at(fault.at, () => network.partition(fault.side));
      queue.at(fault.at + fault.duration, () => network.heal());
    }
  }
}
