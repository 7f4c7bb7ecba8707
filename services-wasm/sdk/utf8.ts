// UTF-8 for fracpack strings (docs/formats.md §1.4 rule 9): encoding replaces lone surrogates with
// U+FFFD, as TextEncoder does on the TypeScript side; decoding rejects anything not well-formed.

/** Number of bytes `encodeUtf8Into` writes for `s`. */
export function utf8Length(s: string): u32 {
  return <u32>String.UTF8.byteLength(s);
}

/** Writes `s` as UTF-8 at `dest` (room for utf8Length(s) bytes); returns the bytes written. */
export function encodeUtf8Into(s: string, dest: usize): u32 {
  return encodeUtf16Into(changetype<usize>(s), s.length, dest);
}

/** Writes `units` UTF-16 units at `src` as UTF-8 at `dest` (room for 3 bytes a unit), as encodeUtf8Into does; returns the bytes written. */
export function encodeUtf16Into(src: usize, units: i32, dest: usize): u32 {
  return <u32>String.UTF8.encodeUnsafe(src, units, dest, false, String.UTF8.ErrorMode.REPLACE);
}

export function encodeUtf8(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  encodeUtf8Into(s, out.dataStart);
  return out;
}

/** Decodes bytes that `isValidUtf8` accepted. */
export function decodeUtf8(ptr: usize, length: u32): string {
  return String.UTF8.decodeUnsafe(ptr, length);
}

// Continuation bytes are 0x80..0xBF; `lo`/`hi` narrow the first one to exclude overlong forms,
// surrogates (ED A0..BF) and code points above U+10FFFF.
function continuations(ptr: usize, at: u32, end: u32, count: u32, lo: u32, hi: u32): bool {
  if (end - at < count) return false;
  const first = <u32>load<u8>(ptr + at);
  if (first < lo || first > hi) return false;
  for (let i: u32 = 1; i < count; i++) {
    const b = <u32>load<u8>(ptr + at + i);
    if (b < 0x80 || b > 0xbf) return false;
  }
  return true;
}

/** Whether [ptr, ptr + length) is well-formed UTF-8. */
export function isValidUtf8(ptr: usize, length: u32): bool {
  let i: u32 = 0;
  while (i < length) {
    const b = <u32>load<u8>(ptr + i);
    i++;
    if (b < 0x80) continue;
    let count: u32;
    let lo: u32 = 0x80;
    let hi: u32 = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) count = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      count = 2;
      if (b == 0xe0) lo = 0xa0;
      else if (b == 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      count = 3;
      if (b == 0xf0) lo = 0x90;
      else if (b == 0xf4) hi = 0x8f;
    } else return false;
    if (!continuations(ptr, i, length, count, lo, hi)) return false;
    i += count;
  }
  return true;
}
