import { hash } from 'node:crypto';

/** SHA-256 with node:crypto (the node side; host-api uses @noble/hashes to stay browser-safe). */
export function sha256(data: Uint8Array): Uint8Array {
  // One-shot (no Hash object); copied out of the Buffer into a Uint8Array of its own.
  return new Uint8Array(hash('sha256', data, 'buffer'));
}
