// create-snapshot (docs/p2p.md §7.3): the newest snapshot whose checksum enough producers signed
// and whose state this node kept, written in psibase's file format. The node must be stopped: the
// directory's lock (runtime/fs/directory-lock.ts) refuses a node directory in use.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DbId } from '../../host-api/abi/databases.js';
import { blockKey } from '../../host-api/abi/keys.js';
import { signDigest, type KeyPair } from '../../host-api/crypto/keys.js';
import type { StateChecksum, StateSignature, StatusRow } from '../../host-api/types/native.js';
import { readBlockSignature } from '../chain/block-signing.js';
import { readConsensusChanges } from '../chain/consensus-changes.js';
import { producersOf } from '../chain/consensus.js';
import { LmdbStore } from '../db/lmdb-store.js';
import type { KvReader } from '../db/store.js';
import { DirectoryLock } from '../fs/directory-lock.js';
import { KeptStates } from './kept-states.js';
import { headerRows, lightHeaderBlocks, lightHeaders } from './light-headers.js';
import { newestSignedState } from './signed-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRow, fileDbOf, fileHeader, FileDb, footerRows } from './snapshot-file.js';
import { signState } from './state-signatures.js';

export interface CreateSnapshotOptions {
  /** The node directory (its database is `db` in it). */
  readonly nodeDir: string;
  /** The snapshot file; '-' writes to stdout. */
  readonly file: string;
  readonly gzip?: boolean;
  /** The whole block log up to the snapshot block, with its signatures, instead of the consensus-change headers (`--blocks`). */
  readonly blocks?: boolean;
  /** Keys of current producers that sign the snapshot too (`--sign`). */
  readonly signWith?: readonly KeyPair[];
}

export interface CreatedSnapshot {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
  readonly bytes: number;
}

export async function createSnapshot(options: CreateSnapshotOptions): Promise<CreatedSnapshot> {
  // Held while the state is read: a node started meanwhile could prune the kept state read.
  const lock = DirectoryLock.take(options.nodeDir);
  try {
    return await snapshotOf(options);
  } finally {
    lock.release();
  }
}

async function snapshotOf(options: CreateSnapshotOptions): Promise<CreatedSnapshot> {
  const store = LmdbStore.open(join(options.nodeDir, 'db'));
  try {
    const { blockNum, blockId, file } = snapshotFile(store, KeptStates.of(options.nodeDir), options);
    const out = options.gzip ? gzipSync(file) : file;
    if (options.file === '-') process.stdout.write(out);
    else writeFileSync(options.file, out);
    return { blockNum, blockId, bytes: out.length };
  } finally {
    store.abort();
    await store.close();
  }
}

/**
 * The newest snapshot of `store` whose state is kept and signed by enough producers, as a plain
 * snapshot file: what create-snapshot writes, and a running node's GET /native/admin/snapshot
 * answers (the state is read from the kept rows, so blocks may go on being committed).
 */
export function snapshotFile(store: KvReader, kept: KeptStates, options: Pick<CreateSnapshotOptions, 'blocks' | 'signWith'> = {}): { blockNum: number; blockId: Uint8Array; file: Uint8Array } {
  const { blockNum, blockId, rows, checksum, signatures, status } = newestSignedState(store, kept, (status, checksum) => (options.signWith ?? []).map((key) => signWithKey(status, checksum, key)));
  const parts: Uint8Array[] = [fileHeader(), rows];
  // The consensus-change headers, which let a new node validate the producers (docs/p2p.md §7.3).
  const light = lightHeaderBlocks(store, lightHeaders(readConsensusChanges(store), status));
  // The file's databases in order: block log (3), block proofs (4), aux data (65).
  const rowsOfLight = light.flatMap(headerRows).sort((a, b) => fileDbOf(a.db) - fileDbOf(b.db));
  if (options.blocks) {
    for (let num = 2; num <= blockNum; num++) {
      const block = store.get(DbId.blockLog, blockKey(num));
      if (block) parts.push(encodeRow(FileDb.blockLog, blockKey(num), block));
    }
    for (let num = 2; num <= blockNum; num++) {
      const signature = readBlockSignature(store, num);
      if (signature) parts.push(encodeRow(FileDb.blockProof, blockKey(num), signature));
    }
  }
  for (const { db, key, value } of rowsOfLight) {
    if (!options.blocks || db === DbId.nativeSubjective) parts.push(encodeRow(fileDbOf(db), key, value));
  }
  parts.push(...footerRows(checksum, signatures));
  return { blockNum, blockId, file: Buffer.concat(parts) };
}

/** A signature by the current producer whose claim is `key`'s public key (verify-sig). */
function signWithKey(status: StatusRow, checksum: StateChecksum, key: KeyPair): StateSignature {
  const producer = producersOf(status.consensus.current).find((p) => equalBytes(p.auth.rawData, key.publicKey));
  if (!producer) throw new SnapshotError('SNAPSHOT_NO_KEY', 'a --sign key is not the key of any current producer');
  return signState(checksum, producer, (digest) => signDigest(key, digest));
}
