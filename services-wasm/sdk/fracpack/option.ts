// Option<T> for any T, value types included (`T | null` covers reference types only). Packs
// exactly like `T | null` would: docs/formats.md §1.2.

import { Writer } from "./writer";
import { Reader } from "./reader";
import { optionSlotIsAbsent, readOptionInner, writeOptionHeap, writeOptionSlot, zeroValue } from "./codec";
import { writeOptionKey } from "./key";
import { abort } from "../abort";

export class Option<T> {
  constructor(public hasValue: bool = false, public value: T = zeroValue<T>()) {}

  /** The value; aborts when there is none. */
  get(): T {
    if (!this.hasValue) abort("Option has no value");
    return this.value;
  }

  /** The value, or `fallback` when there is none. */
  getOr(fallback: T): T {
    return this.hasValue ? this.value : fallback;
  }

  // The custom fracpack protocol (see codec.ts); the layout methods ignore `this`.
  __fpFixedSize(): u32 { return 4; }
  __fpIsVariable(): bool { return true; }
  __fpIsAbsent(): bool { return !this.hasValue; }
  __fpNone(): Option<T> { return new Option<T>(); }

  __fpWriteSlot(w: Writer): void {
    writeOptionSlot<T>(w, !this.hasValue, this.value);
  }

  __fpWriteHeap(w: Writer, slotPos: u32): void {
    writeOptionHeap<T>(w, !this.hasValue, this.value, slotPos);
  }

  /** Standing alone: the slot, then the inner encoding when the slot points. */
  __fpWriteFull(w: Writer): void {
    const slotPos = w.pos;
    this.__fpWriteSlot(w);
    this.__fpWriteHeap(w, slotPos);
  }

  __fpReadSlot(r: Reader, at: u32): Option<T> {
    if (optionSlotIsAbsent(r, at)) return new Option<T>();
    return new Option<T>(true, readOptionInner<T>(r, at));
  }

  __fpReadFull(r: Reader): Option<T> {
    return this.__fpReadSlot(r, r.take(4, "Option"));
  }

  __fpWriteKey(w: Writer): void {
    writeOptionKey<T>(w, !this.hasValue, this.value);
  }
}

export function some<T>(value: T): Option<T> {
  return new Option<T>(true, value);
}

export function none<T>(): Option<T> {
  return new Option<T>();
}
