// The simulator's virtual clock: actions scheduled at virtual milliseconds, run in time order and,
// at equal times, in the order they were scheduled, so a run depends only on its seed.

interface Scheduled {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

export class EventQueue {
  private heap: Scheduled[] = [];
  private seq = 0;
  private time = 0;

  get now(): number {
    return this.time;
  }

  get size(): number {
    return this.heap.length;
  }

  at(time: number, run: () => void): void {
    this.push({ at: Math.max(time, this.time), seq: this.seq++, run });
  }

  after(delayMs: number, run: () => void): void {
    this.at(this.time + delayMs, run);
  }

  /** Runs the earliest action not later than `until`; false when there is none. */
  runNext(until: number): boolean {
    const first = this.heap[0];
    if (!first || first.at > until) return false;
    this.pop();
    this.time = first.at;
    first.run();
    return true;
  }

  private before(a: Scheduled, b: Scheduled): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(item: Scheduled): void {
    const heap = this.heap;
    heap.push(item);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && this.before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
}
