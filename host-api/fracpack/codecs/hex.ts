import { Codec, FixedCodec, describe, jsonError, valueError } from '../codec.js';
import { Reader } from '../reader.js';
import { Writer } from '../writer.js';
import { bytesToHex, hexToBytes } from '../../encoding/hex.js';
import { ContainerCodec } from './list.js';
import { SmallIntCodec } from './int.js';
import { isAlwaysEmpty, readAlwaysEmptySlot } from './nested.js';

// Custom `hex`: the value is the raw bytes of a List of fixed elements (without the length), of
// a FracPack body, or of a fixed type; natively a Uint8Array, in JSON uppercase hex. Bytes that
// are not plain u8/i8 are checked against the underlying type in both directions.

function toBytes(codec: Codec, value: unknown, fail: typeof valueError): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') {
    try {
      return hexToBytes(value);
    } catch (err) {
      throw fail(codec, (err as Error).message);
    }
  }
  throw fail(codec, `expected bytes (Uint8Array or hex string), got ${describe(value)}`);
}

function isByte(c: Codec): boolean {
  return c instanceof SmallIntCodec && c.fixedSize === 1 && c.bits === 8;
}

/** Checks `w.buf[start, w.pos)` decodes strictly as `underlying`. */
function validateWritten(underlying: Codec, w: Writer, start: number): void {
  const r = new Reader(w.buf.subarray(start, w.pos), false);
  underlying.readFull(r);
  if (r.known && r.pos !== r.end) throw valueError(underlying, `bytes do not form one ${underlying.name}`);
}

/** hex over List<T fixed>; List<u8> is the common `bytes` type. */
export class HexListCodec extends ContainerCodec<Uint8Array> {
  private readonly plain: boolean;

  constructor(name: string, private readonly list: Codec, private readonly element: Codec) {
    super(name);
    this.plain = isByte(element);
  }

  isEmpty(value: unknown): boolean {
    if (value instanceof Uint8Array || typeof value === 'string') return value.length === 0;
    throw valueError(this, `expected bytes (Uint8Array or hex string), got ${describe(value)}`);
  }

  emptyValue(): Uint8Array {
    return new Uint8Array(0);
  }

  writeFull(w: Writer, value: unknown): void {
    const bytes = toBytes(this, value, valueError);
    if (bytes.length % this.element.fixedSize !== 0) {
      throw valueError(this, `${bytes.length} bytes are not a whole number of ${this.element.fixedSize}-byte elements`);
    }
    const start = w.pos;
    w.u32(bytes.length);
    w.bytes(bytes);
    if (!this.plain) validateWritten(this.list, w, start);
  }

  readFull(r: Reader): Uint8Array {
    const at = r.pos;
    if (!this.plain) {
      this.list.readFull(r);
      return r.bytes(at + 4, r.pos);
    }
    const length = this.readLength(r, 1);
    return r.bytes(r.pos - length, r.pos);
  }

  toJson(value: Uint8Array): unknown {
    return bytesToHex(value);
  }

  fromJson(json: unknown): Uint8Array {
    return toBytes(this, json, jsonError);
  }
}

/**
 * hex over FracPack<T>: the raw body. Packing also accepts T's value itself (for example a
 * Transaction object where a packed transaction is expected). Like FracPack<T>, it is an
 * always-empty container when T has zero size.
 */
export class HexNestedCodec extends Codec<Uint8Array> {
  readonly fixedSize = 4;
  readonly isVariable = true;
  override readonly isContainer: boolean;

  constructor(name: string, private readonly inner: Codec) {
    super(name);
    this.isContainer = isAlwaysEmpty(inner);
  }

  override writeSlot(w: Writer, value: unknown): void {
    // The checked full encoding of an empty body is its length, 0: the container's offset 0.
    if (this.isContainer) this.writeFull(w, value);
    else w.slot();
  }

  override writeHeap(w: Writer, value: unknown, slotPos: number): void {
    if (!this.isContainer) super.writeHeap(w, value, slotPos);
  }

  override readSlot(r: Reader, at: number): Uint8Array {
    if (!this.isContainer) return super.readSlot(r, at);
    readAlwaysEmptySlot(this.name, this.inner, r, at);
    return new Uint8Array(0);
  }

  writeFull(w: Writer, value: unknown): void {
    const lengthPos = w.slot();
    if (value instanceof Uint8Array || typeof value === 'string') {
      w.bytes(toBytes(this, value, valueError));
      validateWritten(this.inner, w, lengthPos + 4);
    } else {
      this.inner.writeFull(w, value);
    }
    w.view.setUint32(lengthPos, w.pos - lengthPos - 4, true);
  }

  readFull(r: Reader): Uint8Array {
    const at = r.pos;
    r.need(at, 4, this.name);
    const length = r.u32(at);
    r.body(at + 4, length, this.name, () => this.inner.readFull(r));
    return r.bytes(at + 4, at + 4 + length);
  }

  toJson(value: Uint8Array): unknown {
    return bytesToHex(value);
  }

  fromJson(json: unknown, strict = false): Uint8Array {
    if (typeof json === 'string') return toBytes(this, json, jsonError);
    // A structured value: pack it as T.
    return this.packed(this.inner.fromJson(json, strict));
  }

  /** T's default, packed: a missing packed transaction is a transaction of defaults. */
  defaultValue(): Uint8Array {
    return this.packed(this.inner.defaultValue());
  }

  private packed(value: unknown): Uint8Array {
    const w = new Writer();
    this.inner.writeFull(w, value);
    return w.finish();
  }
}

/** hex over a fixed type, e.g. Checksum256 = Array<u8, 32>. */
export class HexFixedCodec extends FixedCodec<Uint8Array> {
  readonly fixedSize: number;
  private readonly plain: boolean;

  constructor(name: string, private readonly underlying: Codec) {
    super(name);
    this.fixedSize = underlying.fixedSize;
    const element = (underlying as { element?: Codec }).element;
    this.plain = element !== undefined && isByte(element);
  }

  writeFull(w: Writer, value: unknown): void {
    const bytes = toBytes(this, value, valueError);
    if (bytes.length !== this.fixedSize) throw valueError(this, `expected exactly ${this.fixedSize} bytes, got ${bytes.length}`);
    const start = w.pos;
    w.bytes(bytes);
    if (!this.plain) validateWritten(this.underlying, w, start);
  }

  readSlot(r: Reader, at: number): Uint8Array {
    if (!this.plain) this.underlying.readSlot(r, at);
    return r.bytes(at, at + this.fixedSize);
  }

  toJson(value: Uint8Array): unknown {
    return bytesToHex(value);
  }

  fromJson(json: unknown): Uint8Array {
    const bytes = toBytes(this, json, jsonError);
    if (bytes.length !== this.fixedSize) throw jsonError(this, `expected exactly ${this.fixedSize} bytes, got ${bytes.length}`);
    return bytes;
  }

  defaultValue(): Uint8Array {
    return new Uint8Array(this.fixedSize);
  }
}
