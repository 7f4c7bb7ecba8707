import { Codec, FixedCodec, describe, jsonError, valueError, withPath } from '../codec.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

function checkLength(codec: Codec, value: unknown, len: number, fail = valueError): unknown[] {
  if (!Array.isArray(value)) throw fail(codec, `expected an array of ${len}, got ${describe(value)}`);
  if (value.length !== len) throw fail(codec, `expected exactly ${len} elements, got ${value.length}`);
  return value;
}

function arrayToJson<E>(element: Codec<E>, value: E[]): unknown {
  return value.map((v) => element.toJson(v));
}

function arrayFromJson<E>(codec: Codec, element: Codec<E>, len: number, json: unknown, strict: boolean): E[] {
  return checkLength(codec, json, len, jsonError).map((v, i) => {
    try {
      return element.fromJson(v, strict);
    } catch (err) {
      throw withPath(err, `${codec.name}[${i}]`);
    }
  });
}

/** Array{type,len} of a fixed element: the elements concatenated, inline in a parent. */
export class FixedArrayCodec<E> extends FixedCodec<E[]> {
  readonly fixedSize: number;

  constructor(name: string, readonly element: Codec<E>, readonly len: number) {
    super(name);
    this.fixedSize = element.fixedSize * len;
  }

  writeFull(w: Writer, value: unknown): void {
    const items = checkLength(this, value, this.len);
    for (let i = 0; i < this.len; i++) this.element.writeFull(w, items[i]);
  }

  readSlot(r: Reader, at: number): E[] {
    const out = new Array<E>(this.len);
    const size = this.element.fixedSize;
    for (let i = 0; i < this.len; i++) out[i] = this.element.readSlot(r, at + i * size);
    return out;
  }

  toJson(value: E[]): unknown {
    return arrayToJson(this.element, value);
  }

  fromJson(json: unknown, strict = false): E[] {
    return arrayFromJson(this, this.element, this.len, json, strict);
  }

  defaultValue(): E[] {
    return Array.from({ length: this.len }, () => this.element.defaultValue());
  }
}

/** Array{type,len} of a variable element: `len` slots then heap, no count. */
export class VariableArrayCodec<E> extends Codec<E[]> {
  readonly fixedSize = 4;
  readonly isVariable = true;

  constructor(name: string, readonly element: Codec<E>, readonly len: number) {
    super(name);
  }

  writeFull(w: Writer, value: unknown): void {
    const items = checkLength(this, value, this.len);
    const start = w.pos;
    for (let i = 0; i < this.len; i++) this.element.writeSlot(w, items[i]);
    for (let i = 0; i < this.len; i++) this.element.writeHeap(w, items[i], start + 4 * i);
  }

  readFull(r: Reader): E[] {
    const at = r.pos;
    r.need(at, 4 * this.len, this.name);
    r.pos = at + 4 * this.len;
    const out = new Array<E>(this.len);
    for (let i = 0; i < this.len; i++) out[i] = this.element.readSlot(r, at + 4 * i);
    return out;
  }

  toJson(value: E[]): unknown {
    return arrayToJson(this.element, value);
  }

  fromJson(json: unknown, strict = false): E[] {
    return arrayFromJson(this, this.element, this.len, json, strict);
  }

  defaultValue(): E[] {
    return Array.from({ length: this.len }, () => this.element.defaultValue());
  }
}
