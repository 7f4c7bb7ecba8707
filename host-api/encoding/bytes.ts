/** Whether two byte arrays hold the same bytes. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The parts joined into one new array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// V8 keeps a typed array of up to 64 bytes on the JS heap; a larger one gets its own backing
// store, whose allocation costs about a microsecond. Packing and copying make several such
// arrays per request, so small ones are cut from a shared slab instead (as Node's Buffer pool
// does). A slab lives while any array cut from it does.
const SLAB_BYTES = 8192;
const MAX_SLAB_CUT = 1024;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/**
 * A new zero-filled array of `length` bytes, like `new Uint8Array(length)` but possibly a view
 * into a shared buffer: its `buffer` must not be transferred or read past its own range.
 */
export function allocBytes(length: number): Uint8Array {
  if (length <= 64 || length > MAX_SLAB_CUT) return new Uint8Array(length);
  if (slabUsed + length > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const bytes = new Uint8Array(slab, slabUsed, length);
  slabUsed += (length + 7) & ~7; // keep cuts 8-byte aligned
  return bytes;
}

/**
 * A plain Uint8Array view of `source[start, end)` (a range within it): `source` itself when the
 * range is all of it. A Buffer's own subarray is slow, and makes a Buffer.
 */
export function viewOfRange(source: Uint8Array, start: number, end: number): Uint8Array {
  return start === 0 && end === source.length ? source : new Uint8Array(source.buffer, source.byteOffset + start, end - start);
}

/** A copy of `source[start, end)` (a range within it) made with allocBytes (same caveat on its `buffer`). */
export function copyOfRange(source: Uint8Array, start = 0, end = source.length): Uint8Array {
  const bytes = allocBytes(end - start);
  bytes.set(viewOfRange(source, start, end));
  return bytes;
}
