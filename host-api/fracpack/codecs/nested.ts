import { Codec, type Layout } from '../codec.js';
import { FracpackError } from '../errors.js';
import { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

/** A FracPack of a zero-size type is a container, always empty: in a parent's slot, offset 0. */
export function isAlwaysEmpty(inner: Layout): boolean {
  return !inner.isVariable && inner.fixedSize === 0;
}

/** Reads the slot of an always-empty FracPack: offset 0, then the inner value of no bytes. */
export function readAlwaysEmptySlot<T>(name: string, inner: Codec<T>, r: Reader, at: number): T {
  if (r.u32(at) !== 0) {
    throw new FracpackError('FRACPACK_BAD_OFFSET', `${name}: a FracPack of a zero-size type must be offset 0 (byte ${at})`);
  }
  return inner.readFull(new Reader(new Uint8Array(0), false));
}

/**
 * FracPack<T>: u32 length, then T's full encoding. The native and JSON value is T's. It shares
 * the wire form of List<u8>; when T has zero size it is a container, always empty, so in a
 * parent's slot it is always offset 0.
 */
export class NestedCodec<T> extends Codec<T> {
  readonly fixedSize = 4;
  readonly isVariable = true;
  override readonly isContainer: boolean;

  constructor(name: string, readonly inner: Codec<T>) {
    super(name);
    this.isContainer = isAlwaysEmpty(inner);
  }

  override writeSlot(w: Writer): void {
    if (this.isContainer) w.u32(0);
    else w.slot();
  }

  override writeHeap(w: Writer, value: unknown, slotPos: number): void {
    if (!this.isContainer) super.writeHeap(w, value, slotPos);
  }

  writeFull(w: Writer, value: unknown): void {
    const lengthPos = w.slot();
    this.inner.writeFull(w, value);
    w.view.setUint32(lengthPos, w.pos - lengthPos - 4, true);
  }

  override readSlot(r: Reader, at: number): T {
    return this.isContainer ? readAlwaysEmptySlot(this.name, this.inner, r, at) : super.readSlot(r, at);
  }

  readFull(r: Reader): T {
    const at = r.pos;
    r.need(at, 4, this.name);
    return r.body(at + 4, r.u32(at), this.name, () => this.inner.readFull(r));
  }

  toJson(value: T): unknown {
    return this.inner.toJson(value);
  }

  fromJson(json: unknown, strict = false): T {
    return this.inner.fromJson(json, strict);
  }

  defaultValue(): T {
    return this.inner.defaultValue();
  }
}
