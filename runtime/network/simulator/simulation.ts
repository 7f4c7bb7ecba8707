import { Random } from '../../testing/random.js';
import { EventQueue } from './event-queue.js';
import { InvariantChecker } from './invariants.js';
import { DurableChain } from './model-chain.js';
import { convergenceBoundMs, drawSchedule, type Schedule } from './schedule.js';
import { SimNetwork } from './sim-network.js';
import { SimNode } from './sim-node.js';

// One seeded run of block sync (docs/p2p.md "What we build" item 7): a producer and followers on
// a virtual clock, with the faults of the schedule, the invariants checked after every step, and
// at the end every follower at the producer's head within the stated bound.

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
  const checker = new InvariantChecker(() => queue.now, logs[0]!);
  let network: SimNetwork | undefined;
  const context = { queue, random, schedule, checker, network: () => network! };
  const nodes = logs.map((log, i) => new SimNode(i, `n${i}`, log, context));
  network = new SimNetwork(queue, random, schedule, nodes);
  scheduleFaults(schedule, queue, nodes, network);
  for (let t = 0; t <= schedule.stopAt; t += schedule.blockIntervalMs) queue.at(t, () => nodes[0]!.produce());

  let steps = 0;
  while (queue.runNext(schedule.stopAt)) steps++;
  const producerHead = nodes[0]!.head!;
  const bound = convergenceBoundMs(schedule, producerHead.num);
  const deadline = schedule.stopAt + bound;
  const behind = () => nodes.filter((n) => n.head?.id !== producerHead.id);
  while (behind().length > 0 && queue.runNext(deadline)) steps++;
  for (const node of behind()) {
    checker.fail(`${node.name} is at ${node.head?.num} ${node.head?.id}, not the producer's head ${producerHead.num} ${producerHead.id}, ${bound} ms after the last block`);
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
