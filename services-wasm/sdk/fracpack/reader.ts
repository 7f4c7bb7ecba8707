// Decoder state of docs/formats.md §1.4: the heap cursor `pos`, whether it is exactly `known`, and the
// end of the current body. Positions are u32 offsets into the input; bounds are checked in u64
// so adding an offset never wraps (rule 1). Every violation aborts with a message, except in a
// checking reader (`packedProblem`), which records the first one and from then on reads only zeros, so
// the rest of the walk touches no memory outside the input and makes nothing large.

import { abort } from "../abort";

export class Reader {
  readonly base: usize;
  pos: u32 = 0;
  end: u32;
  known: bool = true;
  /** A checking reader's first violation; null while the data is fine. */
  problem: string | null = null;
  /** Whether a checking reader has seen a violation (every read then answers zero). */
  failed: bool = false;

  /**
   * `compat`: accept unknown fields of extensible types (data from a newer type version).
   * `invalid`: the message to abort with on bad data instead of the detailed fracpack one.
   */
  constructor(readonly data: Uint8Array, readonly compat: bool, readonly invalid: string | null = null, readonly checking: bool = false) {
    this.base = data.dataStart;
    this.end = <u32>data.length;
  }

  fail(message: string): void {
    const invalid = this.invalid;
    const text = invalid !== null ? invalid : "fracpack: " + message;
    if (!this.checking) abort(text);
    if (!this.failed) this.problem = text;
    this.failed = true;
    this.end = 0;
  }

  /** The number of type T at `at`. */
  numberAt<T>(at: u32): T {
    return this.failed ? <T>0 : load<T>(this.base + at);
  }

  /** Aborts unless [at, at + n) lies inside the current body. */
  need(at: u32, n: u32, what: string): void {
    if (<u64>at + n > <u64>this.end) this.fail(what + ": needs " + n.toString() + " bytes at " + at.toString());
  }

  u8At(at: u32): u8 {
    return this.numberAt<u8>(at);
  }

  u16At(at: u32): u16 {
    return this.numberAt<u16>(at);
  }

  u32At(at: u32): u32 {
    return this.numberAt<u32>(at);
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
