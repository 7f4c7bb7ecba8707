// Bytes as hex text, upper case as psibase's JSON writes it (docs/formats.md §3).

const DIGITS = "0123456789ABCDEF";

/** The hex of `bytes` from `start` on. */
export function bytesToHex(bytes: Uint8Array, start: i32 = 0): string {
  const n = max(bytes.length - start, 0);
  // The string's UTF-16 units written in place: two per byte.
  const out = changetype<string>(__new(<usize>n << 2, idof<string>()));
  const at = changetype<usize>(out);
  for (let i = 0; i < n; i++) {
    const b = <i32>bytes[start + i];
    store<u16>(at + (<usize>i << 2), DIGITS.charCodeAt(b >> 4));
    store<u16>(at + (<usize>i << 2) + 2, DIGITS.charCodeAt(b & 15));
  }
  return out;
}

/** The value of hex digit `c` (either case), or -1. */
export function hexDigitValue(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Bytes from hex text (either case), or null when it is not whole bytes of hex. */
export function hexToBytes(text: string): Uint8Array | null {
  if (text.length % 2 != 0) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigitValue(text.charCodeAt(2 * i));
    const lo = hexDigitValue(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = <u8>((hi << 4) | lo);
  }
  return out;
}
