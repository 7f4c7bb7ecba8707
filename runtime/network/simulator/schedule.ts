import { Random } from './random.js';
import { livenessBoundMs as consensusLivenessBoundMs, maxFaulty } from '../consensus/liveness-bound.js';

// One simulated run, drawn from its seed: the nodes and links, the network's timings and faults,
// and the time by which every follower must have caught up.

export interface ProducerChange {
  readonly at: number;
  readonly producers: readonly number[];
  /** setConsensus to this algorithm; the same as the set in force: setProducers (docs/p2p.md §6.1). */
  readonly algorithm: 'cft' | 'bft';
}

export type Fault =
  | { readonly kind: 'crash'; readonly node: number; readonly at: number; readonly duration: number }
  | { readonly kind: 'partition'; readonly side: readonly number[]; readonly at: number; readonly duration: number };

export interface Schedule {
  readonly seed: number;
  readonly nodeCount: number;
  /**
   * Nodes 0 .. producerCount - 1 are the first producers: one produces alone (its blocks
   * irreversible `commitLag` blocks later); two or more run `algorithm`, as does a set that
   * changes.
   */
  readonly producerCount: number;
  /** CFT elects leaders (docs/p2p.md §4); BFT, with 4 or more producers, takes them in turn (§5). */
  readonly algorithm: 'cft' | 'bft';
  /**
   * Changes of the producer set (setProducers or setConsensus, docs/p2p.md §6.1), each to a set
   * of node indexes, asked for at `at`: the leader puts the latest one asked for into its next
   * block that may hold one, until a block has it. Some CFT schedules switch to BFT and back
   * (switchesAlgorithm); a BFT schedule's sets stay BFT, each of 4 or more producers with at most
   * f of them Byzantine. A schedule does one or the other, never both.
   */
  readonly producerChanges: readonly ProducerChange[];
  /** Whether producers elect leaders with CFT: several of them, or a set that changes. */
  readonly cft: boolean;
  /**
   * BFT producers that break the rules, at most f of 3f + 1: `withhold` takes no part in
   * consensus (it only relays blocks); `equivocate` makes two blocks at each height of its terms,
   * each sent to some of its links (the second without the change of the producer set the first
   * starts, if it starts one), and prepares and commits every block it sees.
   */
  readonly byzantine: readonly { readonly node: number; readonly behaviour: ByzantineBehaviour }[];
  /** [a, b]: a dials b (and redials it when the link goes). */
  readonly edges: readonly (readonly [number, number])[];
  readonly blockIntervalMs: number;
  /** A single producer's blocks become irreversible this many blocks later (0: at once, as in the node). */
  readonly commitLag: number;
  readonly maxDelayMs: number;
  /** How long writing one message takes before `sent` is reported. */
  readonly maxSendMs: number;
  readonly maxApplyMs: number;
  readonly redialMs: number;
  /** Per message, before `quietAt`: the link dies and the message is lost. */
  readonly dropRate: number;
  /** Per message, before `quietAt`: delivered, then the link dies, so a reconnect sends it again. */
  readonly duplicateRate: number;
  readonly faults: readonly Fault[];
  /** Every fault is over: crashed nodes are back, partitions healed, no more drops. */
  readonly quietAt: number;
  /**
   * The producers make their last block, unless CFT needs longer (simulation.ts): with several
   * producers, irreversibility must move on within livenessBoundMs of the end of the faults.
   */
  readonly stopAt: number;
}

export type ByzantineBehaviour = 'withhold' | 'equivocate';

const FAULT_WINDOW_MS = 3000;

export function drawSchedule(seed: number): Schedule {
  const random = new Random(seed);
  const nodeCount = 2 + random.int(7);
  const producerCount = 1 + random.int(Math.min(nodeCount, 7));
  const edges: [number, number][] = [];
  // A random tree keeps every node reachable; extra edges make cycles and several routes.
  for (let b = 1; b < nodeCount; b++) edges.push([b, random.int(b)]);
  for (let extra = random.int(nodeCount); extra > 0; extra--) {
    const a = random.int(nodeCount);
    const b = random.int(nodeCount);
    if (a !== b && !edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) edges.push([a, b]);
  }
  const faults: Fault[] = [];
  for (let n = random.int(6); n > 0; n--) {
    const at = random.int(FAULT_WINDOW_MS);
    const duration = 50 + random.int(1500);
    if (random.bool()) {
      faults.push({ kind: 'crash', node: random.int(nodeCount), at, duration });
    } else {
      const side = [...Array(nodeCount).keys()].filter(() => random.bool());
      faults.push({ kind: 'partition', side, at, duration });
    }
  }
  const quietAt = Math.max(FAULT_WINDOW_MS, ...faults.map((f) => f.at + f.duration));
  const blockIntervalMs = random.pick([20, 50, 100]);
  const timings = {
    commitLag: random.int(4),
    maxDelayMs: 1 + random.int(30),
    maxSendMs: random.int(3),
    maxApplyMs: 1 + random.int(5),
    redialMs: 10 + random.int(90),
    dropRate: random.pick([0, 0.002, 0.01, 0.05]),
    duplicateRate: random.pick([0, 0.002, 0.01, 0.05]),
  };
  // Drawn last, so that the CFT schedules drawn before BFT existed stay as they were.
  const algorithm = producerCount >= 4 && random.int(3) > 0 ? 'bft' : 'cft';
  const byzantine: { node: number; behaviour: ByzantineBehaviour }[] = [];
  if (algorithm === 'bft') {
    const candidates = [...Array(producerCount).keys()];
    for (let n = random.int(maxFaulty(producerCount) + 1); n > 0; n--) {
      const [node] = candidates.splice(random.int(candidates.length), 1);
      byzantine.push({ node: node!, behaviour: random.pick(['withhold', 'equivocate'] as const) });
    }
    connectHonestNodes(nodeCount, edges, new Set(byzantine.map((b) => b.node)));
  }
  // A CFT run changes its producers or switches algorithm; a BFT run may change its producers.
  const changes = algorithm === 'cft'
    ? drawProducerChanges(seed, nodeCount)
    : drawBftProducerChanges(seed, nodeCount, byzantine.map((b) => b.node));
  const producerChanges = algorithm === 'cft' && changes.length === 0 ? drawAlgorithmSwitches(seed, nodeCount) : changes;
  const cft = algorithm === 'cft' && (producerCount > 1 || producerChanges.length > 0);
  return {
    seed,
    nodeCount,
    producerCount,
    algorithm,
    producerChanges,
    cft,
    byzantine,
    edges,
    blockIntervalMs,
    ...timings,
    faults,
    quietAt,
    // CFT needs time after the faults for an election (a few timeouts) and for commits to resume;
    // BFT for a few view changes.
    stopAt: quietAt + (algorithm === 'bft' ? 4 * viewTimeoutMs(blockIntervalMs) : cft ? 20 * electionTimeoutMs(blockIntervalMs) : 300),
  };
}

/**
 * A third of the runs change the producer set once or twice within the fault window, to 1 to 7
 * of the nodes. Drawn from a generator of their own, so the rest of each seed's run is as before.
 */
function drawProducerChanges(seed: number, nodeCount: number): ProducerChange[] {
  const random = new Random(seed ^ 0x70d5c4a9);
  if (random.int(3) !== 0) return [];
  return [...Array(1 + random.int(2))].map(() => {
    const producers = random.subset(nodeCount, 1 + random.int(Math.min(nodeCount, 7)));
    return { at: random.int(FAULT_WINDOW_MS), producers, algorithm: 'cft' as const };
  }).sort((a, b) => a.at - b.at);
}

/**
 * A third of the BFT runs change the producer set once or twice within the fault window (BFT→BFT
 * joint consensus, docs/p2p.md §6.1), each new set 4 to 7 nodes of which at most f are Byzantine,
 * so that safety must still hold in every set. Drawn from a generator of their own, so the rest
 * of each seed's run is as before.
 */
function drawBftProducerChanges(seed: number, nodeCount: number, byzantine: readonly number[]): ProducerChange[] {
  const random = new Random(seed ^ 0x2bf7c1e3);
  if (random.int(3) !== 0) return [];
  const honest = [...Array(nodeCount).keys()].filter((n) => !byzantine.includes(n));
  return [...Array(1 + random.int(2))].map(() => {
    const size = 4 + random.int(Math.min(nodeCount, 7) - 3);
    // As many Byzantine members as the set tolerates at most, and enough honest nodes for the rest.
    const faulty = Math.max(size - honest.length, random.int(Math.min(byzantine.length, maxFaulty(size)) + 1));
    const members = [
      ...random.subset(byzantine.length, faulty).map((i) => byzantine[i]!),
      ...random.subset(honest.length, size - faulty).map((i) => honest[i]!),
    ];
    return { at: random.int(FAULT_WINDOW_MS), producers: members.sort((a, b) => a - b), algorithm: 'bft' as const };
  }).sort((a, b) => a.at - b.at);
}

/**
 * A third of the CFT runs of 4 or more nodes that change no producers switch algorithm (§6.1):
 * in the first half of the fault window to BFT with 4 to 7 of the nodes, in the second back to
 * CFT with 1 to 7. Drawn from a generator of their own.
 */
function drawAlgorithmSwitches(seed: number, nodeCount: number): ProducerChange[] {
  const random = new Random(seed ^ 0x3a1b5c7d);
  if (nodeCount < 4 || random.int(3) !== 0) return [];
  const half = FAULT_WINDOW_MS / 2;
  return [
    { at: random.int(half), producers: random.subset(nodeCount, 4 + random.int(Math.min(nodeCount, 7) - 3)), algorithm: 'bft' },
    { at: half + random.int(half), producers: random.subset(nodeCount, 1 + random.int(Math.min(nodeCount, 7))), algorithm: 'cft' },
  ];
}

/** Whether the producers switch between CFT and BFT in this run. */
export function switchesAlgorithm(schedule: Schedule): boolean {
  return schedule.producerChanges.some((c) => c.algorithm !== schedule.algorithm);
}

/**
 * Blocks travel over links, so Byzantine nodes on every path between two honest ones could keep
 * them apart for ever; BFT promises nothing then. Extra links join the honest nodes' components.
 */
function connectHonestNodes(nodeCount: number, edges: [number, number][], byzantine: ReadonlySet<number>): void {
  const component = [...Array(nodeCount).keys()];
  const find = (n: number): number => (component[n] === n ? n : (component[n] = find(component[n]!)));
  for (const [a, b] of edges) if (!byzantine.has(a) && !byzantine.has(b)) component[find(a)] = find(b);
  const honest = [...Array(nodeCount).keys()].filter((n) => !byzantine.has(n));
  for (const n of honest.slice(1)) {
    if (find(n) === find(honest[0]!)) continue;
    edges.push([n, honest[0]!]);
    component[find(n)] = find(honest[0]!);
  }
}


/** The BFT view-change timer's start: psibase's 10 s for 1 s slots (docs/p2p.md §5.1), scaled to the slot. */
export function viewTimeoutMs(blockIntervalMs: number): number {
  return 10 * blockIntervalMs;
}

/** Whether producers take the lead by consensus (CFT or BFT), rather than one producing alone. */
export function electsLeaders(schedule: Schedule): boolean {
  return schedule.cft || schedule.algorithm === 'bft';
}

/** The base election timeout T: psibase's 3 s for 1 s slots (docs/p2p.md §4), scaled to the slot. */
export function electionTimeoutMs(blockIntervalMs: number): number {
  return 3 * blockIntervalMs;
}

/** With several producers, how long after the end of the faults irreversibility must move on. */
export function livenessBoundMs(schedule: Schedule, largestTimeoutMs: number): number {
  const sets = [schedule.producerCount, ...schedule.producerChanges.map((c) => c.producers.length)];
  return consensusLivenessBoundMs({ algorithm: schedule.algorithm, sets, largestTimeoutMs, blockIntervalMs: schedule.blockIntervalMs });
}

/** The longest path, in links, between two nodes. */
function diameter(schedule: Schedule): number {
  const neighbours = [...Array(schedule.nodeCount)].map(() => [] as number[]);
  for (const [a, b] of schedule.edges) {
    neighbours[a]!.push(b);
    neighbours[b]!.push(a);
  }
  let longest = 0;
  for (let start = 0; start < schedule.nodeCount; start++) {
    const distance = new Map([[start, 0]]);
    for (const queue = [start]; queue.length > 0;) {
      const node = queue.shift()!;
      for (const next of neighbours[node]!) {
        if (distance.has(next)) continue;
        distance.set(next, distance.get(node)! + 1);
        queue.push(next);
      }
    }
    longest = Math.max(longest, ...distance.values());
  }
  return longest;
}

/**
 * How long after `stopAt` every follower may take to reach the producer's head, `blocks` being the
 * producer's head number then. Every link is back within a redial and a connect (r + 2d); then,
 * along a path of D links, each hop's hello exchange (at most blocks + 1 hellos of s each, a
 * round trip of 2d) and the first block's apply (a); and the blocks themselves pipeline at one
 * write (s) and one apply (a) each.
 */
export function convergenceBoundMs(schedule: Schedule, blocks: number): number {
  const { redialMs: r, maxDelayMs: d, maxSendMs: s, maxApplyMs: a } = schedule;
  return r + 2 * d + diameter(schedule) * (2 * d + (blocks + 1) * s + a) + blocks * (s + a);
}
