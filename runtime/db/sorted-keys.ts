// An ordered set of binary-string keys, kept as a list of sorted chunks: an insertion or
// removal moves at most one chunk's elements, a lookup is two binary searches. This keeps
// writes O(log n + chunk) where one sorted array would make a block's inserts quadratic.

const MAX_CHUNK = 512;

export class SortedKeys {
  private readonly chunks: string[][] = [];

  /** Adds a key that is not in the set. */
  insert(key: string): void {
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([key]);
      return;
    }
    let c = this.firstChunkEndingAtOrAfter(key);
    if (c === chunks.length) c--;
    const chunk = chunks[c];
    chunk.splice(lowerBound(chunk, key), 0, key);
    if (chunk.length > MAX_CHUNK) chunks.splice(c + 1, 0, chunk.splice(MAX_CHUNK >> 1));
  }

  /** Removes a key; absent keys are ignored. */
  delete(key: string): void {
    const c = this.firstChunkEndingAtOrAfter(key);
    const chunk = this.chunks[c];
    if (!chunk) return;
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) return;
    chunk.splice(i, 1);
    if (chunk.length === 0) this.chunks.splice(c, 1);
  }

  /** The smallest key >= `key` (or > `key` when not inclusive). */
  ceiling(key: string, inclusive: boolean): string | undefined {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const last = lastOf(chunks[mid]);
      if (inclusive ? last < key : last <= key) lo = mid + 1;
      else hi = mid;
    }
    const chunk = chunks[lo];
    if (!chunk) return undefined;
    return chunk[inclusive ? lowerBound(chunk, key) : upperBound(chunk, key)];
  }

  /** The largest key <= `key` (or < `key` when not inclusive). */
  floor(key: string, inclusive: boolean): string | undefined {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const first = chunks[mid][0];
      if (inclusive ? first <= key : first < key) lo = mid + 1;
      else hi = mid;
    }
    const chunk = chunks[lo - 1];
    if (!chunk) return undefined;
    return chunk[(inclusive ? upperBound(chunk, key) : lowerBound(chunk, key)) - 1];
  }

  last(): string | undefined {
    const chunk = this.chunks[this.chunks.length - 1];
    return chunk && lastOf(chunk);
  }

  /** Visits every key in order. */
  forEach(visit: (key: string) => void): void {
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i++) visit(chunk[i]);
    }
  }

  private firstChunkEndingAtOrAfter(key: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lastOf(chunks[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lastOf(chunk: string[]): string {
  return chunk[chunk.length - 1];
}

/** Index of the first element >= key. */
function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element > key. */
function upperBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
