// create-snapshot (docs/p2p.md §7.3): the newest snapshot whose checksum enough producers signed
// and whose state this node kept, written in psibase's file format. The node should be stopped.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DbId } from '../../host-api/abi/databases.js';
import { blockDataKey, blockKey, statusKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { signDigest, type KeyPair } from '../../host-api/crypto/keys.js';
import { Block } from '../../host-api/types/index.js';
import { StatusRow } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import { producersOf } from '../chain/consensus.js';
import { sha256 } from '../crypto/sha256.js';
import { KvMerkle } from '../crypto/kv-merkle.js';
import { LmdbStore } from '../db/lmdb-store.js';
import type { KvReader } from '../db/store.js';
import { KeptStates } from './kept-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRow, encodedRows, fileHeader, FileDb, footerRows } from './snapshot-file.js';
import { SNAPSHOT_PREFIX, SnapshotRow, sameChecksum, stateSignatureInfo, type StateChecksum, type StateSignature } from './snapshot-rows.js';
import { rowsOf } from './state-rows.js';
import { signingProducers, weakThreshold } from './state-signatures.js';

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
    const { blockNum, blockId, rows, checksum, signatures } = newestSigned(store, KeptStates.of(options.nodeDir), options.signWith ?? []);
    const parts: Uint8Array[] = [fileHeader(), rows];
    const last = options.blocks ? blockNum : undefined;
    const blockNums = last === undefined ? [...new Set([2, blockNum])] : Array.from({ length: last - 1 }, (_, i) => i + 2);
    for (const num of blockNums) {
      const block = readBlock(store, num);
      if (!block) continue;
      // Headers prove the chain; transactions are not needed (psibase strips them too).
      const stored = options.blocks ? block : { header: block.header, transactions: [], subjectiveData: null };
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

interface SignedState {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
  readonly rows: Uint8Array;
  readonly checksum: StateChecksum;
  readonly signatures: StateSignature[];
}

/** The newest kept state with enough producer signatures (counting those made with `keys`). */
function newestSigned(store: KvReader, kept: KeptStates, keys: readonly KeyPair[]): SignedState {
  // SnapshotRow keys hold the block id, which starts with the block number: key order is block order.
  const rows = [...rowsOf(store, DbId.nativeSubjective, SNAPSHOT_PREFIX)].reverse();
  for (const { value } of rows) {
    const row = SnapshotRow.unpack(value);
    if (!row.state) continue;
    const blockNum = Buffer.from(row.id).readUInt32BE(0);
    const keptRows = kept.rows(blockNum, row.id);
    if (!keptRows) continue;
    const status = statusIn(keptRows);
    const checksum = checksumOf(keptRows);
    if (!sameChecksum(checksum, row.state.state)) {
      throw new SnapshotError('SNAPSHOT_CHECKSUM', `the kept state of block ${blockNum} does not match its recorded checksum`);
    }
    const signatures = [...row.state.signatures, ...keys.map((key) => signWithKey(status, checksum, key))];
    const consensus = status.consensus.current;
    if (signingProducers(consensus, signatures).size < weakThreshold(consensus)) continue;
    const block = readBlock(store, blockNum);
    if (!block || !Buffer.from(computeBlockId(block.header)).equals(row.id)) continue;
    return { blockNum, blockId: row.id, rows: keptRows, checksum, signatures };
  }
  throw new SnapshotError('SNAPSHOT_NONE', 'no verified snapshot available: no kept snapshot state has enough producer signatures (schedule snapshots with transact::setSnapTime)');
}

/** The status row among a kept state's native rows. */
function statusIn(rows: Uint8Array): StatusRow {
  const key = Buffer.from(statusKey());
  for (const row of encodedRows(rows)) if (row.fileDb === FileDb.native && key.equals(row.key)) return StatusRow.unpack(row.value);
  throw new SnapshotError('SNAPSHOT_HEAD', 'the kept state has no status row');
}

function checksumOf(rows: Uint8Array): StateChecksum {
  const roots = new Map<number, KvMerkle>([[FileDb.service, new KvMerkle()], [FileDb.native, new KvMerkle()]]);
  for (const { fileDb, key, value } of encodedRows(rows)) roots.get(fileDb)!.push(key, value);
  return { serviceRoot: roots.get(FileDb.service)!.root(), nativeRoot: roots.get(FileDb.native)!.root() };
}

/** A signature by the current producer whose claim is `key`'s public key (verify-sig). */
function signWithKey(status: StatusRow, checksum: StateChecksum, key: KeyPair): StateSignature {
  const producer = producersOf(status.consensus.current).find((p) => Buffer.from(p.auth.rawData).equals(key.publicKey));
  if (!producer) throw new SnapshotError('SNAPSHOT_NO_KEY', 'a --sign key is not the key of any current producer');
  return { account: producer.name, claim: producer.auth, rawData: signDigest(key, sha256(stateSignatureInfo(checksum))) };
}
