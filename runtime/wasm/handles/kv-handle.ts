import type { DbId } from '../../../host-api/abi/databases.js';
import { KvMode } from '../../../host-api/abi/handle-databases.js';

/**
 * What a kv handle stands for (docs/host-abi.md §12.2): a database, a key prefix every access
 * through it adds, and what it may do. Immutable: a handle exported to another service is the
 * same entry in both tables, so closing one copy leaves the other.
 */
export interface KvHandle {
  /** The database id the module named (psibase HEAD's numbering). */
  readonly handleDb: number;
  /** The tsibase database it is. */
  readonly db: DbId;
  readonly prefix: Uint8Array;
  /** KvMode.read, write or readWrite. */
  readonly mode: number;
}

export function canRead(handle: KvHandle): boolean {
  return (handle.mode & KvMode.read) !== 0;
}

export function canWrite(handle: KvHandle): boolean {
  return (handle.mode & KvMode.write) !== 0;
}

/** How a handle is named in messages: its database, prefix (hex) and mode. */
export function describeHandle(handle: KvHandle): string {
  return `db ${handle.handleDb}, prefix ${Buffer.from(handle.prefix).toString('hex') || '(none)'}, mode ${handle.mode}`;
}

/** `prefix` followed by `key`: the key a handle-relative key stands for. */
export function withPrefix(prefix: Uint8Array, key: Uint8Array): Uint8Array {
  const full = new Uint8Array(prefix.length + key.length);
  full.set(prefix);
  full.set(key, prefix.length);
  return full;
}
