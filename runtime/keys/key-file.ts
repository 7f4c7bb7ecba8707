import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../fs/atomic-file.js';
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

function badFile(file: string, problem: string): KeysError {
  return new KeysError('KEYS_BAD_FILE', `${file}: ${problem}`);
}

/** The stored keys; none when the directory has no key file yet. */
export function readKeyFile(dir: string): StoredKey[] {
  const file = join(dir, KEYS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badFile(file, (err as Error).message);
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw badFile(file, 'expected an object with a "keys" array');
  return keys.map((entry: unknown, index) => {
    const { service, privateKey } = (entry ?? {}) as Record<string, unknown>;
    if (typeof service !== 'string' || typeof privateKey !== 'string') {
      throw badFile(file, `keys[${index}] needs string fields "service" and "privateKey"`);
    }
    return { service, privateKey };
  });
}

/** Replaces the key file (owner-only); a crash leaves either the old file or the new one. */
export function writeKeyFile(dir: string, keys: readonly StoredKey[]): void {
  replaceFile(join(dir, KEYS_FILE), `${JSON.stringify({ keys }, null, 2)}\n`, 0o600);
}
