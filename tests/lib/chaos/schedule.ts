// One chaos schedule, drawn from its seed alone (so a failing seed replays): the producers, their
// consensus, which node dials which, and the network faults over a window of time, each with a
// start and a duration. Faults go through the kernel (packets a node sends on a link are lost:
// tests/lib/net-namespaces.ts) or through the link's TCP proxy (delay, stall, refused
// connections, resets: tests/lib/link-proxy.ts). Which node leads is known only while the
// schedule runs, so a fault aimed at the leader names it then.
import { Random } from '../random.js';

export type Algorithm = 'cft' | 'bft';

/** Both directions of a link, or the bytes from its dialler (`forward`) or to it (`backward`). */
export type Way = 'both' | 'forward' | 'backward';

/** A node by index, or whichever producer leads when the fault starts. */
export type Target = number | 'leader';

export type FaultKind =
  /** Every link of the node loses what is sent on it (kernel), or is refused and cut (proxy). */
  | { readonly kind: 'isolate'; readonly node: Target; readonly via: 'kernel' | 'proxy' }
  /**
   * The links between `side` and the others fail (kernel or proxy). With `withLeader`, the side
   * is the leader and the first `withLeader` others of `side` (in its order) that are not it.
   */
  | { readonly kind: 'split'; readonly side: readonly number[]; readonly withLeader?: number; readonly via: 'kernel' | 'proxy' }
  /** One direction of a link loses every packet (kernel) or is not read (proxy stall). */
  | { readonly kind: 'one-way'; readonly link: number; readonly way: 'forward' | 'backward'; readonly via: 'kernel' | 'proxy' }
  /** The proxy writes what it reads that much later, per direction. */
  | { readonly kind: 'delay'; readonly link: number; readonly forwardMs: number; readonly backwardMs: number }
  /** The proxy reads neither direction. */
  | { readonly kind: 'stall'; readonly link: number }
  /** The proxy resets every connection of the link once (the nodes redial). */
  | { readonly kind: 'cut'; readonly link: number };

export type Fault = FaultKind & { readonly at: number; readonly duration: number };

export interface ChaosSchedule {
  readonly seed: number;
  readonly algorithm: Algorithm;
  readonly producers: number;
  readonly blockMs: number;
  /** [a, b]: node a dials node b through the link's proxy. */
  readonly links: readonly (readonly [number, number])[];
  readonly faults: readonly Fault[];
  /** Every fault is over by then (ms from the start of the schedule); the network heals. */
  readonly healAt: number;
}

export interface DrawOptions {
  /** How long the faults may last, from the schedule's start to the heal. */
  readonly windowMs: number;
}

/** Each producer linked to every other, or (sometimes, with four or more) a ring with chords, so that some messages take two hops. */
function drawLinks(random: Random, producers: number): [number, number][] {
  const links: [number, number][] = [];
  const full = producers <= 3 || random.bool();
  // The later node dials the earlier: it starts once the earlier one listens.
  for (let b = 1; b < producers; b++) {
    for (let a = 0; a < b; a++) {
      const ring = b === a + 1 || (a === 0 && b === producers - 1);
      if (full || ring || random.int(3) === 0) links.push([b, a]);
    }
  }
  return links;
}

/** 0 .. n-1 in a random order. */
function shuffled(random: Random, n: number): number[] {
  const items = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function drawFault(random: Random, producers: number, links: number, windowMs: number): Fault {
  const duration = 500 + random.int(Math.min(5000, windowMs / 2));
  const at = random.int(windowMs - duration);
  const via = random.bool() ? 'kernel' : 'proxy';
  const link = random.int(links);
  switch (random.int(8)) {
    case 0:
      return { kind: 'isolate', node: 'leader', via, at, duration };
    case 1:
      return { kind: 'isolate', node: random.int(producers), via, at, duration };
    case 2: {
      // The leader with at most half the producers: no quorum with it (its last blocks are lost).
      return { kind: 'split', side: shuffled(random, producers), withLeader: random.int(Math.floor(producers / 2)), via, at, duration };
    }
    case 3: {
      const side = random.subset(producers, 1 + random.int(producers - 1));
      return { kind: 'split', side, via, at, duration };
    }
    case 4:
      return { kind: 'one-way', link, way: random.bool() ? 'forward' : 'backward', via, at, duration };
    case 5:
      return { kind: 'delay', link, forwardMs: random.int(1500), backwardMs: random.int(1500), at, duration };
    case 6:
      return { kind: 'stall', link, at, duration };
    default:
      return { kind: 'cut', link, at, duration: 0 };
  }
}

/** The schedule of `seed`. */
export function drawSchedule(seed: number, options: DrawOptions): ChaosSchedule {
  const random = new Random(seed);
  const algorithm: Algorithm = random.bool() ? 'cft' : 'bft';
  const producers = algorithm === 'cft' ? 3 + random.int(3) : 4 + random.int(2);
  const links = drawLinks(random, producers);
  const faults: Fault[] = [];
  for (let n = 3 + random.int(6); n > 0; n--) faults.push(drawFault(random, producers, links.length, options.windowMs));
  faults.sort((a, b) => a.at - b.at);
  return { seed, algorithm, producers, blockMs: 300, links, faults, healAt: options.windowMs };
}
