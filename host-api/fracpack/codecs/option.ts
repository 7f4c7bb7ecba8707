import { Codec } from '../codec.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

/**
 * Option<T>: slot 1 when absent (native and JSON `null`; `undefined` packs as absent too).
 * A present value whose inner type is variable and not itself an Option shares the slot with
 * it (so Some([]) is offset 0); otherwise the slot points to the inner value's full encoding.
 */
export class OptionCodec<T> extends Codec<T | null> {
  readonly fixedSize = 4;
  readonly isVariable = true;
  override readonly isOptional = true;
  private readonly shares: boolean;

  constructor(name: string, readonly inner: Codec<T>) {
    super(name);
    this.shares = inner.isVariable && !inner.isOptional;
  }

  override writeSlot(w: Writer, value: unknown): void {
    if (value == null) w.u32(1);
    else if (this.shares) this.inner.writeSlot(w, value);
    else w.slot();
  }

  override writeHeap(w: Writer, value: unknown, slotPos: number): void {
    if (value == null) return;
    if (this.shares) {
      this.inner.writeHeap(w, value, slotPos);
    } else {
      w.pointHere(slotPos);
      this.inner.writeFull(w, value);
    }
  }

  /** Standing alone: the slot, then the inner encoding when the slot points. */
  writeFull(w: Writer, value: unknown): void {
    const slotPos = w.pos;
    this.writeSlot(w, value);
    this.writeHeap(w, value, slotPos);
  }

  override readSlot(r: Reader, at: number): T | null {
    const offset = r.u32(at);
    if (offset === 1) return null;
    if (this.shares) return this.inner.readSlot(r, at);
    r.follow(at, offset, this.name);
    return this.inner.readFull(r);
  }

  readFull(r: Reader): T | null {
    const at = r.pos;
    r.need(at, 4, this.name);
    r.pos = at + 4;
    return this.readSlot(r, at);
  }

  toJson(value: T | null): unknown {
    return value == null ? null : this.inner.toJson(value);
  }

  fromJson(json: unknown, strict = false): T | null {
    return json == null ? null : this.inner.fromJson(json, strict);
  }

  defaultValue(): T | null {
    return null;
  }
}
