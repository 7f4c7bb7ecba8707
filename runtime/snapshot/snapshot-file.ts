// psibase's snapshot file (docs/p2p.md §7.3): `u32le magic 0x7388cf00, u32le version 0`, then rows
// `u32le db ‖ u32le keyLen ‖ key ‖ u32le valueLen ‖ value`: the service rows, the native rows,
// block headers (block log), their signatures (block proofs), aux consensus data (native
// subjective), and last the footer rows (db 0xffffffff) with the checksum and its signatures. A
// gzip file (first byte 0x1f) is unpacked first. The file's database ids are psibase's.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { gunzipSync } from 'node:zlib';
import { DbId } from '../../host-api/abi/databases.js';
import type { KvEntry } from '../db/store.js';
import { SnapshotError } from './snapshot-error.js';
import { StateChecksum, StateSignature } from '../../host-api/types/native.js';

const SNAPSHOT_MAGIC = 0x7388cf00;
const SNAPSHOT_VERSION = 0;

/** Database ids as the file writes them (psibase's DbId). */
export const FileDb = { service: 0, native: 2, blockLog: 3, blockProof: 4, nativeSubjective: 65, footer: 0xffffffff } as const;

/** Our database of each file database. */
const STORE_DB = new Map<number, number>([
  [FileDb.service, DbId.service], [FileDb.native, DbId.native], [FileDb.blockLog, DbId.blockLog],
  [FileDb.blockProof, DbId.blockProof], [FileDb.nativeSubjective, DbId.nativeSubjective],
]);

/** Our database of a file database id (undefined for the footer and unknown ids). */
export function storeDbOf(fileDb: number): number | undefined {
  return STORE_DB.get(fileDb);
}

/** The file database id of one of our databases. */
export function fileDbOf(db: number): number {
  for (const [fileDb, storeDb] of STORE_DB) if (storeDb === db) return fileDb;
  throw new RangeError(`database ${db} has no snapshot file id`);
}

/** Footer keys: table u16 big-endian, index 0; a signature's key goes on with its account. */
const CHECKSUM_KEY = Uint8Array.of(0, 0, 0);
const SIGNATURE_KEY = Uint8Array.of(0, 1, 0);

export function fileHeader(): Uint8Array {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(SNAPSHOT_MAGIC, 0);
  out.writeUInt32LE(SNAPSHOT_VERSION, 4);
  return out;
}

export function encodeRow(fileDb: number, key: Uint8Array, value: Uint8Array): Uint8Array {
  const out = Buffer.alloc(12 + key.length + value.length);
  out.writeUInt32LE(fileDb, 0);
  out.writeUInt32LE(key.length, 4);
  out.set(key, 8);
  out.writeUInt32LE(value.length, 8 + key.length);
  out.set(value, 12 + key.length);
  return out;
}

/** The footer rows: the checksum, then one row per signature. */
export function footerRows(checksum: StateChecksum, signatures: readonly StateSignature[]): Uint8Array[] {
  const accountKey = (account: bigint) => {
    const key = Buffer.alloc(11);
    key.set(SIGNATURE_KEY);
    key.writeBigUInt64BE(account, 3);
    return key;
  };
  return [
    encodeRow(FileDb.footer, CHECKSUM_KEY, StateChecksum.pack(checksum)),
    ...signatures.map((s) => encodeRow(FileDb.footer, accountKey(s.account), StateSignature.pack(s))),
  ];
}

/** A row of the file, with our database id. */
export interface FileRow extends KvEntry {
  readonly db: number;
}

/** A snapshot's content, from a file or from a peer (docs/p2p.md §7.3, §7.4). */
export interface SnapshotContent {
  /** The service rows, then the native rows, each in key order. */
  readonly state: FileRow[];
  /** The other rows (block log, block proofs, aux data). */
  readonly extra: FileRow[];
  readonly checksum: StateChecksum;
  readonly signatures: StateSignature[];
}

/** Reads a whole snapshot file; anything malformed throws a SnapshotError. */
export function parseSnapshot(file: Uint8Array): SnapshotContent {
  // A copy of its own: the rows are views into it (encodedRows).
  const bytes = Buffer.from(unpacked(file));
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== SNAPSHOT_MAGIC) throw new SnapshotError('SNAPSHOT_NOT_A_SNAPSHOT', 'not a snapshot file (wrong magic number)');
  const version = bytes.readUInt32LE(4);
  if (version !== SNAPSHOT_VERSION) throw new SnapshotError('SNAPSHOT_VERSION', `unexpected snapshot version ${version}`);
  const state: FileRow[] = [];
  const extra: FileRow[] = [];
  const signatures: StateSignature[] = [];
  let checksum: StateChecksum | undefined;
  let currentDb = FileDb.service as number;
  for (const { fileDb, key, value } of encodedRows(bytes, 8)) {
    if (fileDb !== FileDb.footer && !STORE_DB.has(fileDb)) throw new SnapshotError('SNAPSHOT_BAD_ROW', `unexpected database id ${fileDb}`);
    if (fileDb !== currentDb) {
      if (fileDb < currentDb) throw new SnapshotError('SNAPSHOT_BAD_ROW', `databases are in the wrong order (${fileDb} after ${currentDb})`);
      currentDb = fileDb;
    }
    if (fileDb === FileDb.footer) {
      try {
        if (equalBytes(key, CHECKSUM_KEY)) checksum = StateChecksum.unpack(value);
        else if (key.length >= 3 && equalBytes(key.subarray(0, 3), SIGNATURE_KEY)) signatures.push(StateSignature.unpack(value));
      } catch (err) {
        throw new SnapshotError('SNAPSHOT_BAD_ROW', `a footer row does not decode: ${(err as Error).message}`);
      }
      continue;
    }
    const row = { db: STORE_DB.get(fileDb)!, key, value };
    if (fileDb === FileDb.service || fileDb === FileDb.native) {
      state.push(row);
    } else {
      extra.push(row);
    }
  }
  if (!checksum) throw new SnapshotError('SNAPSHOT_CHECKSUM', 'the snapshot has no checksum in its footer');
  return { state, extra, checksum, signatures };
}

/** Rows encoded as a snapshot file holds them, in one buffer: the rows of a kept state. */
export function encodeRows(rows: readonly FileRow[]): Uint8Array {
  let length = 0;
  for (const { key, value } of rows) length += 12 + key.length + value.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const { db, key, value } of rows) {
    at = out.writeUInt32LE(fileDbOf(db), at);
    at = out.writeUInt32LE(key.length, at);
    out.set(key, at);
    at = out.writeUInt32LE(value.length, at + key.length);
    out.set(value, at);
    at += value.length;
  }
  return out;
}

/**
 * The rows encoded in `bytes` from `at` on, with the file's database ids. Keys and values are
 * views into `bytes` (a state has hundreds of thousands of rows: no copy each), so `bytes` must
 * not change while they are used.
 */
export function* encodedRows(bytes: Uint8Array, at = 0): Generator<{ fileDb: number; key: Uint8Array; value: Uint8Array }> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const take = (n: number): Uint8Array => {
    if (at + n > view.length) throw new SnapshotError('SNAPSHOT_TRUNCATED', `the snapshot ends inside a row (at byte ${at})`);
    const out = new Uint8Array(bytes.buffer, bytes.byteOffset + at, n);
    at += n;
    return out;
  };
  const u32 = () => {
    if (at + 4 > view.length) throw new SnapshotError('SNAPSHOT_TRUNCATED', `the snapshot ends inside a row (at byte ${at})`);
    at += 4;
    return view.readUInt32LE(at - 4);
  };
  while (at < view.length) {
    const fileDb = u32();
    const key = take(u32());
    const value = take(u32());
    yield { fileDb, key, value };
  }
}

function unpacked(file: Uint8Array): Uint8Array {
  if (file[0] !== 0x1f) return file;
  try {
    return gunzipSync(file);
  } catch (err) {
    throw new SnapshotError('SNAPSHOT_TRUNCATED', `the gzip snapshot does not unpack: ${(err as Error).message}`);
  }
}
