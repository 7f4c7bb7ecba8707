// Argument checks at the store's public surface. Sizes are the host's business (docs/host-abi.md §3);
// here we only refuse what would corrupt the store or fail later inside an LMDB commit.

import { TsibaseError } from '../../host-api/errors.js';

export function requireBytes(what: string, value: unknown): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    const got = value === null ? 'null' : typeof value === 'object' ? value.constructor?.name : typeof value;
    throw new TsibaseError('DB_NOT_BYTES', `${what} must be a Uint8Array, got ${got}`);
  }
}

/** LMDB refuses zero-length keys; catching it at put keeps a block's commit from failing. */
export function requireStorableKey(key: unknown): asserts key is Uint8Array {
  requireBytes('key', key);
  if (key.length === 0) throw new TsibaseError('DB_EMPTY_KEY', 'an empty key cannot be stored');
}

export function requireMatchLength(key: Uint8Array, matchLength: number): void {
  if (!Number.isInteger(matchLength) || matchLength < 0 || matchLength > key.length) {
    throw new TsibaseError('DB_BAD_MATCH_LENGTH',
      `match length ${matchLength} must be an integer from 0 to the key length ${key.length}`);
  }
}
