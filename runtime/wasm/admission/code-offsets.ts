// Where the original code's bytes land in the metered module: metering inserts code between
// stretches it copies unchanged, so each copied stretch moves as one. Admission uses it to move
// the offsets of a module's line table (rewrite-line-table.ts) along with its code.

export class CodeOffsets {
  /** Start of each copied stretch in the original module, ascending. */
  private readonly from: number[] = [];
  /** Where each starts in the metered module; relative to `base` until `place` sets it. */
  private readonly to: number[] = [];
  private base = 0;

  /** The original bytes from `original` on were copied to `written` (relative to where shift and place put it). */
  copied(original: number, written: number): void {
    this.from.push(original);
    this.to.push(written);
  }

  /** How many stretches were told. */
  get count(): number {
    return this.from.length;
  }

  /** Moves the stretches told from the `first`th on by `by` bytes (a function body's place in the section). */
  shift(first: number, by: number): void {
    for (let i = first; i < this.to.length; i++) this.to[i]! += by;
  }

  /** The code section's content begins at `offset` of the metered module. */
  place(offset: number): void {
    this.base = offset;
  }

  /** The metered module's offset of original offset `offset` (a stretch's own bytes move with it). */
  moved(offset: number): number {
    const { from, to } = this;
    let low = 0;
    let high = from.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (from[mid]! <= offset) low = mid + 1;
      else high = mid;
    }
    if (low === 0) return from.length === 0 ? offset : this.base + to[0]!;
    return this.base + to[low - 1]! + (offset - from[low - 1]!);
  }
}
