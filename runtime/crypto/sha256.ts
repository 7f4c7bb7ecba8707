import { createHash } from 'node:crypto';

/** SHA-256 with node:crypto (the node side; host-api uses @noble/hashes to stay browser-safe). */
export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}
