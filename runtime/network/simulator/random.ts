// Deterministic pseudo-random numbers (mulberry32) so randomized tests replay exactly.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  bool(): boolean {
    return this.next() < 0.5;
  }

  /** `count` distinct integers of [0, n), in increasing order. */
  subset(n: number, count: number): number[] {
    const items = [...Array(n).keys()];
    for (let i = 0; i < count; i++) {
      const j = i + this.int(n - i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items.slice(0, count).sort((a, b) => a - b);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** A function returning uniform numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  const rnd = new Random(seed);
  return () => rnd.next();
}
