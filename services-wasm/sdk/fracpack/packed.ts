// Packed<T>: a record value together with its encoding. Reading one keeps the bytes it was read
// from and writing one copies them back, so a value passed on unchanged (a request the http
// service forwards, a reply it sends) is decoded once and never encoded again. It packs exactly
// as T does.

import { Writer } from "./writer";
import { Reader } from "./reader";
import { pack, readFull } from "./codec";
import { isRecord, recordIsVariable } from "./record";
import { writeKey } from "./key";
import { abort } from "../abort";

export class Packed<T> {
  constructor(public value: T, public bytes: Uint8Array) {
    // Only a variable record always sits behind a pointer, as the full encoding that is kept.
    if (!isRecord<T>()) ERROR("Packed<T> holds a record type");
    if (!recordIsVariable<T>()) abort("Packed<" + nameof<T>() + ">: the record has a fixed size");
  }

  /** `value` and its encoding. */
  static of<T>(value: T): Packed<T> {
    return new Packed<T>(value, pack<T>(value));
  }

  // The custom fracpack protocol (see codec.ts); the layout methods ignore `this`.
  __fpFixedSize(): u32 { return 4; }
  __fpIsVariable(): bool { return true; }

  __fpWriteSlot(w: Writer): void {
    w.slot();
  }

  __fpWriteHeap(w: Writer, slotPos: u32): void {
    w.pointHere(slotPos);
    w.bytes(this.bytes);
  }

  __fpWriteFull(w: Writer): void {
    w.bytes(this.bytes);
  }

  __fpReadSlot(r: Reader, at: u32): Packed<T> {
    r.follow(at, nameof<T>());
    return this.__fpReadFull(r);
  }

  /**
   * Decodes the T at the cursor and keeps a view of the bytes it spans. When it held fields
   * unknown to this T (data of a newer version), their extent is unknown: the kept bytes are
   * then T's own encoding of what was read.
   */
  __fpReadFull(r: Reader): Packed<T> {
    const start = r.pos;
    const value = readFull<T>(r);
    return new Packed<T>(value, r.known ? r.data.subarray(start, r.pos) : pack<T>(value));
  }

  __fpWriteKey(w: Writer): void {
    writeKey<T>(w, this.value);
  }
}
