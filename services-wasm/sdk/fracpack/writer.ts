// Growable output buffer for fracpack and key encoding. Little-endian by default (fracpack),
// big-endian writers for the order-preserving key encoding. Values of any fixed type go through
// reserve() + store<T>() (see codec.ts).

import { abort } from "../abort";

export class Writer {
  private data: Uint8Array;
  pos: u32 = 0;

  constructor(capacity: i32 = 64) {
    this.data = new Uint8Array(capacity);
  }

  /** Makes room for `n` more bytes; returns the address of the write position. */
  reserve(n: u32): usize {
    const need = <u64>this.pos + n;
    let size = <u64>this.data.length;
    if (need > size) {
      while (size < need) size <<= 1;
      if (size > <u64>i32.MAX_VALUE) abort("fracpack: value too large");
      const next = new Uint8Array(<i32>size);
      memory.copy(next.dataStart, this.data.dataStart, this.pos);
      this.data = next;
    }
    return this.data.dataStart + this.pos;
  }

  u8(v: u8): void {
    store<u8>(this.reserve(1), v);
    this.pos += 1;
  }

  u16(v: u16): void {
    store<u16>(this.reserve(2), v);
    this.pos += 2;
  }

  u32(v: u32): void {
    store<u32>(this.reserve(4), v);
    this.pos += 4;
  }

  u64(v: u64): void {
    store<u64>(this.reserve(8), v);
    this.pos += 8;
  }

  u16BE(v: u16): void {
    this.u16(bswap<u16>(v));
  }

  u32BE(v: u32): void {
    this.u32(bswap<u32>(v));
  }

  u64BE(v: u64): void {
    this.u64(bswap<u64>(v));
  }

  /** Copies `length` bytes from `ptr`. */
  raw(ptr: usize, length: u32): void {
    memory.copy(this.reserve(length), ptr, length);
    this.pos += length;
  }

  bytes(b: Uint8Array): void {
    this.raw(b.dataStart, b.length);
  }

  /** Reserves a 4-byte slot for `pointHere` (a pointer) or `patchU32` (a length) to fill in. */
  slot(): u32 {
    const at = this.pos;
    this.u32(0);
    return at;
  }

  /** Points the slot at `slotPos` to the current position (offset relative to the slot). */
  pointHere(slotPos: u32): void {
    this.patchU32(slotPos, this.pos - slotPos);
  }

  patchU32(at: u32, v: u32): void {
    store<u32>(this.data.dataStart + at, v);
  }

  /** The bytes written so far (a view, not a copy). */
  finish(): Uint8Array {
    return this.data.subarray(0, this.pos);
  }
}
