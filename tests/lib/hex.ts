import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';

/** Hex with spaces allowed, as the spec writes it. */
export function hex(text: string): Uint8Array {
  return hexToBytes(text.replace(/\s+/g, ''));
}

export { bytesToHex };
