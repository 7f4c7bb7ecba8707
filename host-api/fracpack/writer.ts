// Growable output buffer. One scratch writer is reused by every top-level pack (packing never
// re-enters itself), so a pack allocates only the final copy of its bytes.

import { copyOfRange } from '../encoding/bytes.js';

export class Writer {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Reserves a 4-byte offset slot to be patched by `pointHere`. */
  slot(): number {
    this.reserve(4);
    const at = this.pos;
    this.pos += 4;
    return at;
  }

  /** Points the slot at `slotPos` to the current position. */
  pointHere(slotPos: number): void {
    this.view.setUint32(slotPos, this.pos - slotPos, true);
  }

  /** Copies out the bytes written so far and resets for the next use. */
  finish(): Uint8Array {
    const out = copyOfRange(this.buf, 0, this.pos);
    this.pos = 0;
    return out;
  }
}

const scratch = new Writer(64 * 1024);
let busy = false;

/** Runs `fill` against the shared scratch writer (a fresh one if it is in use). */
export function withWriter(fill: (w: Writer) => void): Uint8Array {
  if (busy) {
    const w = new Writer();
    fill(w);
    return w.finish();
  }
  busy = true;
  try {
    fill(scratch);
    return scratch.finish();
  } finally {
    scratch.pos = 0;
    busy = false;
  }
}
