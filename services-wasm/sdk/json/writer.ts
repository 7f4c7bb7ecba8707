// JSON text written straight into UTF-8 bytes, for responses built piece by piece (the GraphQL
// executor's, docs/serving.md §4.7): the bytes are those of encodeUtf8 of the same text (lone
// surrogates become U+FFFD), strings quoted and escaped as jsonString escapes them. What was
// written since a mark can be cut off (a nulled value).

import { decodeUtf8, encodeUtf16Into } from "../utf8";

const HEX = "0123456789abcdef";
const FIRST_CAPACITY = 4096;

export class JsonWriter {
  private buffer: Uint8Array = new Uint8Array(FIRST_CAPACITY);
  private size: i32 = 0;

  /** Bytes written so far: a mark to cut back to. */
  get length(): i32 {
    return this.size;
  }

  /** Forgets what was written after `mark`. */
  cut(mark: i32): void {
    this.size = mark;
  }

  /** Room for `n` more bytes; where they go. */
  @inline
  private reserve(n: i32): usize {
    return this.size + n <= this.buffer.length ? this.buffer.dataStart + <usize>this.size : this.grow(n);
  }

  private grow(n: i32): usize {
    const grown = new Uint8Array(max(this.size + n, this.buffer.length * 2));
    memory.copy(grown.dataStart, this.buffer.dataStart, this.size);
    this.buffer = grown;
    return grown.dataStart + <usize>this.size;
  }

  byte(b: u8): void {
    store<u8>(this.reserve(1), b);
    this.size++;
  }

  /** UTF-8 bytes as they are. */
  bytes(bytes: Uint8Array): void {
    const at = this.reserve(bytes.length);
    memory.copy(at, bytes.dataStart, bytes.length);
    this.size += bytes.length;
  }

  /** `text` as UTF-8. */
  text(text: string): void {
    const n = text.length;
    // A UTF-16 unit takes at most 3 bytes (a surrogate pair, 2 units, takes 4).
    let at = this.reserve(n * 3);
    const start = at;
    const src = changetype<usize>(text);
    for (let i = 0; i < n; i++) {
      const c = <u32>load<u16>(src + (<usize>i << 1));
      if (c >= 0x80) {
        at += encodeUtf16Into(src + (<usize>i << 1), n - i, at);
        break;
      }
      store<u8>(at++, <u8>c);
    }
    this.size += <i32>(at - start);
  }

  /** `text` as a JSON string: quoted, `"`, `\` and control characters escaped. */
  string(text: string): void {
    const n = text.length;
    // An escape takes at most 6 bytes (\u00XX), a unit otherwise at most 3.
    let at = this.reserve(n * 6 + 2);
    const start = at;
    const src = changetype<usize>(text);
    store<u8>(at++, 0x22);
    for (let i = 0; i < n; i++) {
      const c = <u32>load<u16>(src + (<usize>i << 1));
      if (c >= 0x80) {
        // A run of non-ASCII units is encoded whole: a surrogate pair is never split.
        let end = i + 1;
        while (end < n && load<u16>(src + (<usize>end << 1)) >= 0x80) end++;
        at += encodeUtf16Into(src + (<usize>i << 1), end - i, at);
        i = end - 1;
      } else if (c >= 0x20 && c != 0x22 && c != 0x5c) {
        store<u8>(at++, <u8>c);
      } else {
        store<u8>(at++, 0x5c);
        if (c == 0x22 || c == 0x5c) store<u8>(at++, <u8>c);
        else if (c == 0x0a) store<u8>(at++, 0x6e);
        else if (c == 0x0d) store<u8>(at++, 0x72);
        else if (c == 0x09) store<u8>(at++, 0x74);
        else {
          store<u8>(at++, 0x75);
          store<u8>(at++, 0x30);
          store<u8>(at++, 0x30);
          store<u8>(at++, <u8>HEX.charCodeAt(c >> 4));
          store<u8>(at++, <u8>HEX.charCodeAt(c & 15));
        }
      }
    }
    store<u8>(at++, 0x22);
    this.size += <i32>(at - start);
  }

  /** The decimal digits of `value`. */
  unsigned(value: u64): void {
    let digits = 1;
    for (let v = value; v >= 10; v /= 10) digits++;
    let at = this.reserve(digits) + <usize>digits;
    let v = value;
    do {
      store<u8>(--at, <u8>(0x30 + v % 10));
      v /= 10;
    } while (v != 0);
    this.size += digits;
  }

  /** `value` in decimal, `-` first when negative. */
  signed(value: i64): void {
    if (value < 0) {
      this.byte(0x2d);
      this.unsigned(<u64>(-value));
    } else {
      this.unsigned(<u64>value);
    }
  }

  /** The bytes written: call once, at the end. */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.size);
  }

  /** The text written. */
  toString(): string {
    return decodeUtf8(this.buffer.dataStart, <u32>this.size);
  }
}
