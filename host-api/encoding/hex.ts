import { TsibaseError } from '../errors.js';

const HEX_DIGITS = '0123456789ABCDEF';
const BYTE_TO_HEX: string[] = Array.from({ length: 256 }, (_, b) => HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!);

// Maps a char code to its nibble value, or -1 for a non-hex character.
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) NIBBLE[65 + i] = NIBBLE[97 + i] = 10 + i;

/** Uppercase hex, the form psibase emits. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i]!];
  return out;
}

/** Parses hex in any case; throws INVALID_HEX naming the problem. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new TsibaseError('INVALID_HEX', `hex string has an odd length (${hex.length})`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex, 2 * i);
    const lo = hexNibble(hex, 2 * i + 1);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

function hexNibble(hex: string, at: number): number {
  const c = hex.charCodeAt(at);
  const v = c < 128 ? NIBBLE[c]! : -1;
  if (v < 0) throw new TsibaseError('INVALID_HEX', `invalid hex character '${hex[at]}' at position ${at}`);
  return v;
}
