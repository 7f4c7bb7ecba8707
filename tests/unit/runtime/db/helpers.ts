// Shared by the store tests: a seeded PRNG, temp directories and stores, and a brute-force model
// of the ordered lookups to check the store against.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import type { KvEntry } from '../../../../runtime/db/store.js';

export { seededRandom } from '../../../lib/random.js';

export function randomInt(random: () => number, below: number): number {
  return Math.floor(random() * below);
}

// Few distinct byte values make shared prefixes, equal keys and 0xff runs common.
const KEY_BYTES = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff];

export function randomKey(random: () => number, minLength: number, maxLength: number): Uint8Array {
  const length = minLength + randomInt(random, maxLength - minLength + 1);
  const key = new Uint8Array(length);
  for (let i = 0; i < length; i++) key[i] = KEY_BYTES[randomInt(random, KEY_BYTES.length)];
  return key;
}

export function randomValue(random: () => number): Uint8Array {
  const value = new Uint8Array(1 + randomInt(random, 6));
  for (let i = 0; i < value.length; i++) value[i] = randomInt(random, 256);
  return value;
}

export function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

export function hex(value: Uint8Array | undefined): string | undefined {
  return value && Buffer.from(value).toString('hex');
}

export function entryHex(entry: KvEntry | undefined): string | undefined {
  return entry && `${hex(entry.key)}=${hex(entry.value)}`;
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tsibase-db-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `body` on a store in a fresh temporary directory, closed and removed afterwards. */
export async function withStore(body: (store: LmdbStore, dir: string) => void | Promise<void>): Promise<void> {
  const dir = makeTempDir();
  const store = LmdbStore.open(dir);
  try {
    await body(store, dir);
  } finally {
    await store.close();
    removeDir(dir);
  }
}

/** The expected content of one database: hex key -> value. */
export type Model = Map<string, Uint8Array>;

function sortedEntries(model: Model): KvEntry[] {
  return [...model]
    .map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value }))
    .sort((a, b) => Buffer.compare(a.key, b.key));
}

function hasPrefix(key: Uint8Array, prefix: Uint8Array): boolean {
  return key.length >= prefix.length && Buffer.compare(key.subarray(0, prefix.length), prefix) === 0;
}

export function modelGreaterEqual(model: Model, key: Uint8Array, matchLength: number): KvEntry | undefined {
  const prefix = key.subarray(0, matchLength);
  return sortedEntries(model).find((e) => Buffer.compare(e.key, key) >= 0 && hasPrefix(e.key, prefix));
}

export function modelLessThan(model: Model, key: Uint8Array, matchLength: number): KvEntry | undefined {
  const prefix = key.subarray(0, matchLength);
  return sortedEntries(model).reverse()
    .find((e) => Buffer.compare(e.key, key) < 0 && hasPrefix(e.key, prefix));
}

export function modelMax(model: Model, prefix: Uint8Array): KvEntry | undefined {
  return sortedEntries(model).reverse().find((e) => hasPrefix(e.key, prefix));
}

/** Every entry of a database as "key=value" strings, read by stepping greaterEqual. */
export function scanAll(
  reader: { greaterEqual(db: number, key: Uint8Array, matchLength: number): KvEntry | undefined },
  db: number,
): string[] {
  const found: string[] = [];
  let entry = reader.greaterEqual(db, new Uint8Array(0), 0);
  while (entry) {
    found.push(entryHex(entry)!);
    // The next key after k in bytewise order is k followed by 0x00.
    const next = new Uint8Array(entry.key.length + 1);
    next.set(entry.key);
    entry = reader.greaterEqual(db, next, 0);
  }
  return found;
}

export function modelScan(model: Model): string[] {
  return sortedEntries(model).map((e) => entryHex(e)!);
}
