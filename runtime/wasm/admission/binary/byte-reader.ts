import { malformed } from '../admission-error.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Cursor over a byte range with the primitive encodings of the WebAssembly binary format.
 * Every read is bounds-checked against `end` and every LEB128 is checked for length and
 * unused bits, so a truncated or corrupt module always ends in WASM_MALFORMED.
 */
export class ByteReader {
  offset: number;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
    readonly end = bytes.length,
  ) {
    this.offset = offset;
  }

  atEnd(): boolean {
    return this.offset >= this.end;
  }

  u8(): number {
    if (this.offset >= this.end) throw malformed('unexpected end', this.offset);
    return this.bytes[this.offset++]!;
  }

  /** Unsigned LEB128 of at most 32 bits (5 bytes). */
  u32(): number {
    const start = this.offset;
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8();
      if (shift === 28 && (byte & 0xf0) !== 0) throw malformed('integer too large for u32 LEB128', start);
      result |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result >>> 0;
    }
    throw malformed('integer too large for u32 LEB128', start);
  }

  /** Signed LEB128 of at most `bits` bits (32 or 33); returns the value as a number. */
  signed(bits: 32 | 33): number {
    const start = this.offset;
    let result = 0;
    let multiplier = 1;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8();
      if (shift === 28) {
        // 4 (s32) or 5 (s33) value bits remain; the others must repeat the sign bit.
        const unused = bits === 32 ? 0x70 : 0x60;
        const sign = (byte & (1 << (bits - 29))) !== 0;
        if ((byte & 0x80) !== 0 || (byte & unused) !== (sign ? unused : 0)) {
          throw malformed(`integer too large for s${bits} LEB128`, start);
        }
      }
      result += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if ((byte & 0x80) === 0) return byte & 0x40 ? result - multiplier : result;
    }
    throw malformed(`integer too large for s${bits} LEB128`, start);
  }

  /** Steps over a signed LEB128 of at most 64 bits (10 bytes), checking its unused bits. */
  skipS64(): void {
    const start = this.offset;
    for (let i = 0; i < 10; i++) {
      const byte = this.u8();
      if (i === 9 && byte !== 0x00 && byte !== 0x7f) throw malformed('integer too large for s64 LEB128', start);
      if ((byte & 0x80) === 0) return;
    }
  }

  skip(length: number): void {
    if (length > this.end - this.offset) throw malformed('unexpected end', this.offset);
    this.offset += length;
  }

  /** A length-prefixed UTF-8 string. */
  name(): string {
    const length = this.u32();
    const start = this.offset;
    this.skip(length);
    try {
      return utf8.decode(this.bytes.subarray(start, start + length));
    } catch {
      throw malformed('name is not valid UTF-8', start);
    }
  }
}
