// load-snapshot (docs/p2p.md §7.3): checks a snapshot file whole, then replaces the state of the
// node's database with it in one commit, writing its SnapshotRow and LogTruncateRow. A refused
// file leaves the database as it was.

import { join } from 'node:path';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import { JointConsensus, type StatusRow } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import { readStatus } from '../chain/chain-state.js';
import { sha256 } from '../crypto/sha256.js';
import { LmdbStore } from '../db/lmdb-store.js';
import type { Store } from '../db/store.js';
import { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import { SnapshotError } from './snapshot-error.js';
import { parseSnapshot, type ParsedSnapshot } from './snapshot-file.js';
import { sameChecksum, writeLogStart, writeSnapshotRow } from './snapshot-rows.js';
import { rowsOf, STATE_DBS } from './state-rows.js';
import { signingProducers, stateSignatureFailure, weakThreshold } from './state-signatures.js';

export interface LoadedSnapshot {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
}

/** Loads snapshot file bytes (plain or gzip) into the database of `nodeDir`. */
export async function loadSnapshot(nodeDir: string, file: Uint8Array): Promise<LoadedSnapshot> {
  const parsed = parseSnapshot(file);
  if (!sameChecksum(parsed.computed, parsed.checksum)) {
    throw new SnapshotError('SNAPSHOT_CHECKSUM', 'the snapshot rows do not match the checksum in its footer');
  }
  const store = LmdbStore.open(join(nodeDir, 'db'));
  try {
    const loaded = stageSnapshot(store, parsed);
    store.commitBlock(loaded.blockNum, loaded.blockNum);
    store.subjective.commit();
    return loaded;
  } catch (err) {
    store.abort();
    store.subjective.abort();
    throw err;
  } finally {
    await store.close();
  }
}

/** Writes the snapshot into the store's uncommitted overlays and checks it there. */
function stageSnapshot(store: Store, parsed: ParsedSnapshot): LoadedSnapshot {
  const local = readStatus(store);
  for (const db of STATE_DBS) {
    const keys = [...rowsOf(store, db)].map((row) => row.key);
    for (const key of keys) store.remove(db, key);
  }
  for (const { db, key, value } of [...parsed.state, ...parsed.extra]) store.put(db, key, value);
  const status = readStatus(store);
  const head = status?.head;
  if (!status || !head) throw new SnapshotError('SNAPSHOT_HEAD', 'the snapshot state has no head block');
  const blockNum = head.header.blockNum;
  if (local?.head) {
    if (!Buffer.from(local.chainId).equals(status.chainId)) {
      throw new SnapshotError('SNAPSHOT_OTHER_CHAIN', `the database holds chain ${bytesToHex(local.chainId)}, the snapshot chain ${bytesToHex(status.chainId)}`);
    }
    if (local.head.header.blockNum >= blockNum) {
      throw new SnapshotError('SNAPSHOT_OTHER_CHAIN', `the database is at block ${local.head.header.blockNum}, at or past the snapshot's block ${blockNum}`);
    }
  }
  checkHeaders(store, status);
  checkSignatures(store, parsed, status);
  writeSnapshotRow(store, { id: head.blockId, state: { state: parsed.checksum, signatures: parsed.signatures }, other: [] });
  writeLogStart(store, blockNum);
  return { blockNum, blockId: head.blockId };
}

/** The head block's header must be the status row's head; the genesis block's id the chain id. */
function checkHeaders(store: Store, status: StatusRow): void {
  const head = status.head!;
  const block = readBlock(store, head.header.blockNum);
  if (!block || !Buffer.from(computeBlockId(block.header)).equals(head.blockId)) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the snapshot does not hold the header of its head block ${head.header.blockNum}`);
  }
  if (!Buffer.from(block.header.consensusState).equals(sha256(JointConsensus.pack(status.consensus)))) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the head block's consensusState is not the hash of the snapshot's consensus`);
  }
  const genesis = readBlock(store, 2);
  if (!genesis || !Buffer.from(computeBlockId(genesis.header)).equals(status.chainId)) {
    throw new SnapshotError('SNAPSHOT_HEAD', 'the snapshot does not hold the genesis header matching its chain id');
  }
}

/**
 * Every signature must verify (under the snapshot state's verify services) and at least the weak
 * threshold of current producers must have signed.
 */
function checkSignatures(store: Store, parsed: ParsedSnapshot, status: StatusRow): void {
  const executor = new Executor(store, new Engine());
  const consensus = status.consensus.current;
  for (const signature of parsed.signatures) {
    const failure = stateSignatureFailure(executor, parsed.checksum, signature);
    if (failure) throw new SnapshotError('SNAPSHOT_SIGNATURES', `the signature of ${accountNameFromNumber(signature.account)} does not verify: ${failure.message}`);
  }
  const producers = signingProducers(consensus, parsed.signatures);
  const needed = weakThreshold(consensus);
  if (producers.size < needed) {
    throw new SnapshotError('SNAPSHOT_SIGNATURES', `not enough block producer signatures on the snapshot: ${producers.size} of the ${needed} needed`);
  }
}

