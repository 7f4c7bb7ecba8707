// Decoder state of docs/formats.md §1.4: the heap cursor `pos`, whether it is exactly `known`, and the
// end of the current body. Positions are u32 offsets into the input; bounds are checked in u64
// so adding an offset never wraps (rule 1). Every violation aborts with a message.

import { abort } from "../abort";

export class Reader {
  readonly base: usize;
  pos: u32 = 0;
  end: u32;
  known: bool = true;

  /**
   * `compat`: accept unknown fields of extensible types (data from a newer type version).
   * `invalid`: the message to abort with on bad data instead of the detailed fracpack one.
   */
  constructor(readonly data: Uint8Array, readonly compat: bool, readonly invalid: string | null = null) {
    this.base = data.dataStart;
    this.end = <u32>data.length;
  }

  fail(message: string): void {
    const invalid = this.invalid;
    abort(invalid !== null ? invalid : "fracpack: " + message);
  }

  /** Aborts unless [at, at + n) lies inside the current body. */
  need(at: u32, n: u32, what: string): void {
    if (<u64>at + n > <u64>this.end) this.fail(what + ": needs " + n.toString() + " bytes at " + at.toString());
  }

  u8At(at: u32): u8 {
    return load<u8>(this.base + at);
  }

  u16At(at: u32): u16 {
    return load<u16>(this.base + at);
  }

  u32At(at: u32): u32 {
    return load<u32>(this.base + at);
  }

  /** Takes `n` bytes at the heap cursor; returns where they start. */
  take(n: u32, what: string): u32 {
    const at = this.pos;
    this.need(at, n, what);
    this.pos = at + n;
    return at;
  }

  /** Moves the heap cursor to the target of the pointer in the slot at `slotPos` (rule 2). */
  follow(slotPos: u32, what: string): void {
    const offset = this.u32At(slotPos);
    if (offset < 4) this.fail(what + ": offset " + offset.toString() + " is not valid here");
    const target = <u64>slotPos + offset;
    if (target > <u64>this.end) this.fail(what + ": offset points past the end");
    if (this.known ? target != <u64>this.pos : target < <u64>this.pos) this.fail(what + ": offset does not point to the next heap object");
    this.pos = <u32>target;
    this.known = true;
  }

  /** Starts a sized body (Variant, FracPack) at `start`; returns the enclosing end for `leaveBody`. */
  enterBody(start: u32, length: u32, what: string): u32 {
    this.need(start, length, what);
    const outerEnd = this.end;
    this.end = start + length;
    this.pos = start;
    this.known = true;
    return outerEnd;
  }

  /** Ends a body: it must be consumed exactly unless it ends in unknown data (rule 7). */
  leaveBody(outerEnd: u32, what: string): void {
    if (this.known && this.pos != this.end) this.fail(what + ": bytes left over in its body");
    this.pos = this.end;
    this.end = outerEnd;
    this.known = true;
  }
}
