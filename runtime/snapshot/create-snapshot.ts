// create-snapshot (docs/p2p.md §7.3): the newest snapshot whose checksum enough producers signed
// and whose state this node kept, written in psibase's file format. The node should be stopped.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DbId } from '../../host-api/abi/databases.js';
import { blockDataKey, blockKey } from '../../host-api/abi/keys.js';
import { signDigest, type KeyPair } from '../../host-api/crypto/keys.js';
import { Block } from '../../host-api/types/index.js';
import type { StateChecksum, StateSignature, StatusRow } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import { producersOf } from '../chain/consensus.js';
import { LmdbStore } from '../db/lmdb-store.js';
import { KeptStates } from './kept-states.js';
import { newestSignedState } from './signed-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRow, fileHeader, FileDb, footerRows } from './snapshot-file.js';
import { signState } from './state-signatures.js';

export interface CreateSnapshotOptions {
  /** The node directory (its database is `db` in it). */
  readonly nodeDir: string;
  /** The snapshot file; '-' writes to stdout. */
  readonly file: string;
  readonly gzip?: boolean;
  /** The whole block log up to the snapshot block, with its signatures (`--blocks`). */
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
  const store = LmdbStore.open(join(options.nodeDir, 'db'));
  try {
    const { blockNum, blockId, rows, checksum, signatures } = newestSignedState(store, KeptStates.of(options.nodeDir), (status, checksum) => (options.signWith ?? []).map((key) => signWithKey(status, checksum, key)));
    const parts: Uint8Array[] = [fileHeader(), rows];
    // Genesis (2) proves the chain id; the snapshot block is the head.
    const blockNums = options.blocks ? Array.from({ length: blockNum - 1 }, (_, i) => i + 2) : [...new Set([2, blockNum])];
    for (const num of blockNums) {
      const block = readBlock(store, num);
      if (!block) continue;
      // Headers prove the chain; transactions are not needed (psibase strips them too).
      const stored = options.blocks ? block : { header: block.header, transactions: [] };
      parts.push(encodeRow(FileDb.blockLog, blockKey(num), Block.pack(stored)));
    }
    for (const num of blockNums) {
      const signature = store.get(DbId.blockProof, blockKey(num));
      if (signature) parts.push(encodeRow(FileDb.blockProof, blockKey(num), signature));
    }
    const aux = store.get(DbId.nativeSubjective, blockDataKey(blockId));
    if (aux) parts.push(encodeRow(FileDb.nativeSubjective, blockDataKey(blockId), aux));
    parts.push(...footerRows(checksum, signatures));
    const plain = Buffer.concat(parts);
    const out = options.gzip ? gzipSync(plain) : plain;
    if (options.file === '-') process.stdout.write(out);
    else writeFileSync(options.file, out);
    return { blockNum, blockId, bytes: out.length };
  } finally {
    store.abort();
    await store.close();
  }
}

/** A signature by the current producer whose claim is `key`'s public key (verify-sig). */
function signWithKey(status: StatusRow, checksum: StateChecksum, key: KeyPair): StateSignature {
  const producer = producersOf(status.consensus.current).find((p) => equalBytes(p.auth.rawData, key.publicKey));
  if (!producer) throw new SnapshotError('SNAPSHOT_NO_KEY', 'a --sign key is not the key of any current producer');
  return signState(checksum, producer, (digest) => signDigest(key, digest));
}
