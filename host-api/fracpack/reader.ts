import { copyOfRange, viewOfRange } from '../encoding/bytes.js';
import { FracpackError } from './errors.js';

/**
 * Decoder state of docs/formats.md §1.4: the heap cursor `pos`, whether its position is exactly
 * `known`, and the end of the current body. Offsets are plain JS numbers, so adding them can
 * never wrap around at 32 bits.
 */
export class Reader {
  readonly buf: Uint8Array;
  readonly compat: boolean;
  /** Byte fields are views into `buf` instead of copies (its owner never changes it). */
  readonly views: boolean;
  pos: number;
  end: number;
  known = true;
  private dataView: DataView | undefined;

  constructor(buf: Uint8Array, compat: boolean, views = false) {
    this.buf = buf;
    this.compat = compat;
    this.views = views;
    this.pos = 0;
    this.end = buf.length;
  }

  /** Throws unless [at, at + n) lies inside the current body. */
  need(at: number, n: number, what: string): void {
    if (at + n > this.end) {
      throw new FracpackError('FRACPACK_TRUNCATED', `${what} at byte ${at} needs ${n} bytes but only ${Math.max(0, this.end - at)} remain`);
    }
  }

  /** For 64-bit and float reads; made on first use, as most values need none. */
  get view(): DataView {
    return this.dataView ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** The bytes [start, end) of the buffer as a byte field's value: a copy, or a view when reading `views`. */
  bytes(start: number, end: number): Uint8Array {
    return this.views ? viewOfRange(this.buf, start, end) : copyOfRange(this.buf, start, end);
  }

  /** The little-endian u16 at `at` (inside the buffer). */
  u16(at: number): number {
    const b = this.buf;
    return b[at]! | (b[at + 1]! << 8);
  }

  /** The little-endian u32 at `at` (inside the buffer). */
  u32(at: number): number {
    const b = this.buf;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  }

  /**
   * Moves the heap cursor to the target of the pointer `offset` stored at `slotPos` (rule 2:
   * in order, without gaps while the cursor is known).
   */
  follow(slotPos: number, offset: number, what: string): void {
    if (offset < 4) {
      throw new FracpackError('FRACPACK_BAD_OFFSET', `${what}: offset ${offset} at byte ${slotPos} is not valid here`);
    }
    const target = slotPos + offset;
    if (target > this.end) {
      throw new FracpackError('FRACPACK_TRUNCATED', `${what}: offset at byte ${slotPos} points past the end (${target} > ${this.end})`);
    }
    if (this.known ? target !== this.pos : target < this.pos) {
      throw new FracpackError('FRACPACK_BAD_OFFSET', `${what}: offset at byte ${slotPos} points to ${target} but the heap continues at ${this.pos}`);
    }
    this.pos = target;
    this.known = true;
  }

  /** Decodes one sized body (Variant, FracPack): it must be consumed exactly unless it ends in unknown data. */
  body<T>(start: number, length: number, what: string, decode: () => T): T {
    this.need(start, length, what);
    const outerEnd = this.end;
    const bodyEnd = start + length;
    this.end = bodyEnd;
    this.pos = start;
    this.known = true;
    const value = decode();
    if (this.known && this.pos !== bodyEnd) {
      throw new FracpackError('FRACPACK_TRAILING_BYTES', `${what}: ${bodyEnd - this.pos} bytes left over in a body of ${length} bytes`);
    }
    this.end = outerEnd;
    this.pos = bodyEnd;
    this.known = true;
    return value;
  }
}
