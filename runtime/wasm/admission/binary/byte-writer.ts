const utf8 = new TextEncoder();

/** Growable output buffer with the primitive encodings of the WebAssembly binary format. */
export class ByteWriter {
  private buffer: Uint8Array;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.buffer = new Uint8Array(initialCapacity);
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  u8(value: number): this {
    this.reserve(1);
    this.buffer[this.length++] = value;
    return this;
  }

  u32(value: number): this {
    this.reserve(5);
    let rest = value >>> 0;
    do {
      const byte = rest & 0x7f;
      rest >>>= 7;
      this.buffer[this.length++] = rest === 0 ? byte : byte | 0x80;
    } while (rest !== 0);
    return this;
  }

  /** Signed LEB128 of any safe integer (used for i32.const and i64.const immediates). */
  signed(value: number): this {
    this.reserve(10);
    let rest = value;
    for (;;) {
      const byte = rest & 0x7f;
      rest = Math.floor(rest / 128);
      const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
      this.buffer[this.length++] = done ? byte : byte | 0x80;
      if (done) return this;
    }
  }

  /** Appends source[start, end); short spans are copied byte by byte (no subarray object). */
  copy(source: Uint8Array, start: number, end: number): this {
    const length = end - start;
    this.reserve(length);
    if (length > 32) {
      this.buffer.set(source.subarray(start, end), this.length);
    } else {
      const buffer = this.buffer;
      for (let i = 0; i < length; i++) buffer[this.length + i] = source[start + i]!;
    }
    this.length += length;
    return this;
  }

  bytes(data: Uint8Array): this {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }

  name(text: string): this {
    const encoded = utf8.encode(text);
    return this.u32(encoded.length).bytes(encoded);
  }

  /** Appends another writer's content prefixed with its length (sections, function bodies). */
  sized(content: ByteWriter): this {
    return this.u32(content.length).bytes(content.view());
  }

  /** Empties the writer, keeping its buffer for reuse. */
  reset(): this {
    this.length = 0;
    return this;
  }

  /** The bytes written so far, without copying. */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
