// Bytes as hex text, upper case as psibase's JSON writes it (formats.md §3).

const DIGITS = "0123456789ABCDEF";

export function bytesToHex(bytes: Uint8Array): string {
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    parts[i] = DIGITS.charAt(b >> 4) + DIGITS.charAt(b & 15);
  }
  return parts.join("");
}
