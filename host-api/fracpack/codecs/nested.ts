import { Codec } from '../codec.js';
import { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import { ContainerCodec } from './list.js';

/**
 * FracPack<T>: u32 length, then T's full encoding. The native and JSON value is T's. It shares
 * the wire form of List<u8>; when T has zero size it is a container (offset 0 in a slot).
 */
export class NestedCodec<T> extends Codec<T> {
  readonly fixedSize = 4;
  readonly isVariable = true;

  constructor(name: string, readonly inner: Codec<T>) {
    super(name);
  }

  writeFull(w: Writer, value: unknown): void {
    const lengthPos = w.slot();
    this.inner.writeFull(w, value);
    w.view.setUint32(lengthPos, w.pos - lengthPos - 4, true);
  }

  readFull(r: Reader): T {
    const at = r.pos;
    r.need(at, 4, this.name);
    return r.body(at + 4, r.u32(at), this.name, () => this.inner.readFull(r));
  }

  toJson(value: T): unknown {
    return this.inner.toJson(value);
  }

  fromJson(json: unknown): T {
    return this.inner.fromJson(json);
  }
}

/** FracPack of a zero-size type: always empty, so always offset 0 in a slot. */
export class EmptyNestedCodec<T> extends ContainerCodec<T> {
  constructor(name: string, readonly inner: Codec<T>) {
    super(name);
  }

  isEmpty(): boolean {
    return true;
  }

  emptyValue(): T {
    return this.inner.readFull(new Reader(new Uint8Array(0), false));
  }

  writeFull(w: Writer, value: unknown): void {
    w.u32(0);
    this.inner.writeFull(w, value);
  }

  readFull(r: Reader): T {
    const at = r.pos;
    r.need(at, 4, this.name);
    return r.body(at + 4, r.u32(at), this.name, () => this.inner.readFull(r));
  }

  toJson(value: T): unknown {
    return this.inner.toJson(value);
  }

  fromJson(json: unknown): T {
    return this.inner.fromJson(json);
  }
}
