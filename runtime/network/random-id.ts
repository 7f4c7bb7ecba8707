import { randomBytes } from 'node:crypto';

/**
 * A random u64 that is new at every start and never 0 (a peer's "unknown"): the node id of
 * docs/p2p.md §1.4 and the router id of §1.5.
 */
export function randomId(): bigint {
  for (;;) {
    const id = randomBytes(8).readBigUInt64LE();
    if (id !== 0n) return id;
  }
}
