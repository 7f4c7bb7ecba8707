// UTF-8 with strict validation on decode. Short ASCII strings, by far the most common in
// transactions (names, memos, paths), take a loop that avoids TextEncoder/TextDecoder call cost.

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
const SHORT = 32;

/** Decodes bytes[start, end) or returns undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start <= SHORT) {
    let s = '';
    let i = start;
    for (; i < end; i++) {
      const b = bytes[i]!;
      if (b >= 0x80) break;
      s += String.fromCharCode(b);
    }
    if (i === end) return s;
  }
  try {
    return strictDecoder.decode(bytes.subarray(start, end));
  } catch {
    return undefined;
  }
}

/** Upper bound of the UTF-8 length of `s`. */
export function maxUtf8Length(s: string): number {
  return s.length * 3;
}

/** Writes `s` at `at` (room for maxUtf8Length(s) bytes must exist); returns bytes written. */
export function encodeUtf8Into(s: string, bytes: Uint8Array, at: number): number {
  const n = s.length;
  if (n <= SHORT) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      bytes[at + i] = c;
    }
    if (i === n) return n;
  }
  return encoder.encodeInto(s, bytes.subarray(at)).written;
}

export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}
