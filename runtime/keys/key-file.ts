import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';
import { KeysError } from './errors.js';

// The node's own private keys persist as `<dir>/keys.json`, readable by the node's user only:
// {"keys": [{"service": "verify-sig", "privateKey": "<PKCS#8 hex>"}]}. A key the node reported
// may already be registered on chain, so a write is durable before it returns.

export const KEYS_FILE = 'keys.json';

export interface StoredKey {
  readonly service: string;
  /** Private key information as the service defines it (rawData of an import). */
  readonly privateKey: string;
}

/** The stored keys; none when the directory has no key file yet. */
export function readKeyFile(dir: string): StoredKey[] {
  const file = join(dir, KEYS_FILE);
  const badFile = (problem: string) => new KeysError('KEYS_BAD_FILE', `${file}: ${problem}`);
  const value = readJsonFile(file, badFile);
  if (value === undefined) return [];
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw badFile('expected an object with a "keys" array');
  return keys.map((entry: unknown, index) => {
    const { service, privateKey } = (entry ?? {}) as Record<string, unknown>;
    if (typeof service !== 'string' || typeof privateKey !== 'string') {
      throw badFile(`keys[${index}] needs string fields "service" and "privateKey"`);
    }
    return { service, privateKey };
  });
}

/** Replaces the key file (owner-only); a crash leaves either the old file or the new one. */
export function writeKeyFile(dir: string, keys: readonly StoredKey[]): void {
  writeJsonFile(join(dir, KEYS_FILE), { keys }, 0o600);
}
