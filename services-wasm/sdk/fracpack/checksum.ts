// Checksum256: 32 bytes, a fixed Array of u8 (schema name `Checksum256`, JSON hex).

import { Writer } from "./writer";
import { Reader } from "./reader";
import { abort } from "../abort";

const SIZE: u32 = 32;

export class Checksum256 {
  readonly bytes: Uint8Array;

  /** `bytes` must hold 32 bytes; all zero when omitted. */
  constructor(bytes: Uint8Array = new Uint8Array(SIZE)) {
    if (<u32>bytes.length != SIZE) abort("Checksum256 needs 32 bytes");
    this.bytes = bytes;
  }

  equals(other: Checksum256): bool {
    return memory.compare(this.bytes.dataStart, other.bytes.dataStart, SIZE) == 0;
  }

  // The custom fracpack protocol (see codec.ts); the layout methods ignore `this`.
  __fpFixedSize(): u32 { return SIZE; }
  __fpIsVariable(): bool { return false; }

  __fpWriteSlot(w: Writer): void {
    w.bytes(this.bytes);
  }

  __fpWriteHeap(w: Writer, slotPos: u32): void {}

  __fpWriteFull(w: Writer): void {
    w.bytes(this.bytes);
  }

  __fpReadSlot(r: Reader, at: u32): Checksum256 {
    const bytes = new Uint8Array(SIZE);
    if (!r.failed) memory.copy(bytes.dataStart, r.base + at, SIZE);
    return new Checksum256(bytes);
  }

  __fpReadFull(r: Reader): Checksum256 {
    return this.__fpReadSlot(r, r.take(SIZE, "Checksum256"));
  }

  __fpWriteKey(w: Writer): void {
    w.bytes(this.bytes);
  }
}
