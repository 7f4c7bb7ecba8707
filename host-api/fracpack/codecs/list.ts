import { Codec, describe, jsonError, valueError, withPath } from '../codec.js';
import { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import { decodeUtf8, encodeUtf8Into, maxUtf8Length } from '../../encoding/utf8.js';

/**
 * Shared framing of every List: a u32 byte length, then the content. An empty list in a
 * parent's slot is offset 0, and a pointer to an empty list is invalid.
 */
export abstract class ContainerCodec<T> extends Codec<T> {
  readonly fixedSize = 4;
  readonly isVariable = true;
  override readonly isContainer = true;

  abstract isEmpty(value: unknown): boolean;
  abstract emptyValue(): T;

  defaultValue(): T {
    return this.emptyValue();
  }

  override writeSlot(w: Writer, value: unknown): void {
    if (this.isEmpty(value)) w.u32(0);
    else w.slot();
  }

  override writeHeap(w: Writer, value: unknown, slotPos: number): void {
    if (this.isEmpty(value)) return;
    w.pointHere(slotPos);
    this.writeFull(w, value);
  }

  override readSlot(r: Reader, at: number): T {
    const offset = r.u32(at);
    if (offset === 0) return this.emptyValue();
    r.follow(at, offset, this.name);
    r.need(r.pos, 4, this.name);
    if (r.u32(r.pos) === 0) {
      throw new FracpackError('FRACPACK_BAD_OFFSET', `${this.name}: offset at byte ${at} points to an empty list (must be offset 0)`);
    }
    return this.readFull(r);
  }

  /** Reads the u32 byte length at the heap cursor and moves the cursor past the content. */
  protected readLength(r: Reader, elementSize: number): number {
    const at = r.pos;
    r.need(at, 4, this.name);
    const length = r.u32(at);
    if (length % elementSize !== 0) {
      throw new FracpackError('FRACPACK_BAD_LENGTH', `${this.name}: byte length ${length} at ${at} is not a multiple of the element size ${elementSize}`);
    }
    r.need(at + 4, length, this.name);
    r.pos = at + 4 + length;
    return length;
  }
}

export class ListCodec<E> extends ContainerCodec<E[]> {
  constructor(name: string, readonly element: Codec<E>) {
    super(name);
    if (!element.isVariable && element.fixedSize === 0) {
      throw new FracpackError('FRACPACK_SCHEMA', `${name}: a List of a zero-size type has no defined length`);
    }
  }

  isEmpty(value: unknown): boolean {
    if (!Array.isArray(value)) throw valueError(this, `expected an array, got ${describe(value)}`);
    return value.length === 0;
  }

  emptyValue(): E[] {
    return [];
  }

  writeFull(w: Writer, value: unknown): void {
    if (!Array.isArray(value)) throw valueError(this, `expected an array, got ${describe(value)}`);
    const el = this.element;
    const size = el.fixedSize;
    w.u32(value.length * size);
    let i = 0;
    try {
      if (!el.isVariable) {
        for (; i < value.length; i++) el.writeFull(w, value[i]);
        return;
      }
      const start = w.pos;
      for (; i < value.length; i++) el.writeSlot(w, value[i]);
      for (i = 0; i < value.length; i++) el.writeHeap(w, value[i], start + 4 * i);
    } catch (err) {
      throw withPath(err, `[${i}]`);
    }
  }

  readFull(r: Reader): E[] {
    const el = this.element;
    const size = el.fixedSize;
    const length = this.readLength(r, size);
    const start = r.pos - length;
    const count = length / size;
    const out = new Array<E>(count);
    let i = 0;
    try {
      for (; i < count; i++) out[i] = el.readSlot(r, start + i * size);
    } catch (err) {
      throw withPath(err, `[${i}]`);
    }
    return out;
  }

  toJson(value: E[]): unknown {
    return value.map((v) => this.element.toJson(v));
  }

  fromJson(json: unknown, strict = false): E[] {
    if (!Array.isArray(json)) throw jsonError(this, `expected an array, got ${describe(json)}`);
    return json.map((v, i) => {
      try {
        return this.element.fromJson(v, strict);
      } catch (err) {
        throw withPath(err, `[${i}]`);
      }
    });
  }
}

/** Custom `string` over a List of 8-bit ints: UTF-8, validated on decode. */
export class StringCodec extends ContainerCodec<string> {
  isEmpty(value: unknown): boolean {
    if (typeof value !== 'string') throw valueError(this, `expected a string, got ${describe(value)}`);
    return value.length === 0;
  }

  emptyValue(): string {
    return '';
  }

  writeFull(w: Writer, value: unknown): void {
    if (typeof value !== 'string') throw valueError(this, `expected a string, got ${describe(value)}`);
    w.reserve(4 + maxUtf8Length(value));
    const n = encodeUtf8Into(value, w.buf, w.pos + 4);
    w.view.setUint32(w.pos, n, true);
    w.pos += 4 + n;
  }

  readFull(r: Reader): string {
    const length = this.readLength(r, 1);
    const s = decodeUtf8(r.buf, r.pos - length, r.pos);
    if (s === undefined) throw new FracpackError('FRACPACK_BAD_UTF8', `${this.name}: string at byte ${r.pos - length - 4} is not valid UTF-8`);
    return s;
  }

  toJson(value: string): unknown {
    return value;
  }

  fromJson(json: unknown): string {
    if (typeof json !== 'string') throw jsonError(this, `expected a string, got ${describe(json)}`);
    return json;
  }
}
