// Putting a snapshot into a node's store (docs/p2p.md §7.3 loading, §7.4 apply_snapshot), from a
// file or from a peer: the content is checked whole in the store's uncommitted overlays (rows in
// key order matching the checksum, the head and genesis headers, the producers' signatures), then
// the state is replaced in one commit, with the SnapshotRow and LogTruncateRow written. A refused
// snapshot leaves the store as it was. The snapshot's state is kept, so this node can pass it on.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import { JointConsensus, type StateChecksum, type StatusRow } from '../../host-api/types/native.js';
import { readBlock } from '../chain/block-log.js';
import { readStatus } from '../chain/chain-state.js';
import { sha256 } from '../crypto/sha256.js';
import type { Store } from '../db/store.js';
import type { Executor } from '../wasm/executor.js';
import type { KeptStates } from './kept-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRow, fileDbOf, type SnapshotContent } from './snapshot-file.js';
import { sameChecksum, writeLogStart, writeSnapshotRow } from './snapshot-rows.js';
import { rowsOf, StateMerkle, STATE_DBS } from './state-rows.js';
import { signingProducers, stateSignatureFailure, weakThreshold } from './state-signatures.js';

export interface LoadedSnapshot {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
}

/**
 * Checks `content` and makes it the state of `store`; `executor` runs on `store` (it verifies the
 * signatures under the snapshot's own verify services). Throws a SnapshotError, with the store
 * unchanged, when the snapshot is refused.
 */
export function applySnapshot(store: Store, executor: Executor, kept: KeptStates, content: SnapshotContent): LoadedSnapshot {
  const computed = checksumOf(content);
  if (!sameChecksum(computed, content.checksum)) {
    throw new SnapshotError('SNAPSHOT_CHECKSUM', 'the snapshot rows do not match the checksum in its footer');
  }
  let loaded: LoadedSnapshot;
  try {
    loaded = stage(store, executor, content);
  } catch (err) {
    store.abort();
    store.subjective.abort();
    throw err;
  }
  store.commitBlock(loaded.blockNum, loaded.blockNum);
  store.subjective.commit();
  kept.write(loaded.blockNum, loaded.blockId, Buffer.concat(content.state.map((r) => encodeRow(fileDbOf(r.db), r.key, r.value))));
  return loaded;
}

/** The KvMerkle roots of the state rows; rows out of key order are refused. */
function checksumOf(content: SnapshotContent): StateChecksum {
  const merkle = new StateMerkle();
  for (const { db, key, value } of content.state) {
    try {
      merkle.push(db, key, value);
    } catch (err) {
      throw new SnapshotError('SNAPSHOT_BAD_ROW', `database ${db}: ${(err as Error).message}`);
    }
  }
  return merkle.checksum();
}

/** Writes the snapshot into the store's uncommitted overlays and checks it there. */
function stage(store: Store, executor: Executor, content: SnapshotContent): LoadedSnapshot {
  const local = readStatus(store);
  for (const db of STATE_DBS) {
    const keys = [...rowsOf(store, db)].map((row) => row.key);
    for (const key of keys) store.remove(db, key);
  }
  for (const { db, key, value } of [...content.state, ...content.extra]) store.put(db, key, value);
  const status = readStatus(store);
  const head = status?.head;
  if (!status || !head) throw new SnapshotError('SNAPSHOT_HEAD', 'the snapshot state has no head block');
  const blockNum = head.header.blockNum;
  if (local?.head) {
    if (!equalBytes(local.chainId, status.chainId)) {
      throw new SnapshotError('SNAPSHOT_OTHER_CHAIN', `the database holds chain ${bytesToHex(local.chainId)}, the snapshot chain ${bytesToHex(status.chainId)}`);
    }
    if (local.head.header.blockNum >= blockNum) {
      throw new SnapshotError('SNAPSHOT_NOT_NEWER', `the database is at block ${local.head.header.blockNum}, at or past the snapshot's block ${blockNum}`);
    }
  }
  checkHeaders(store, status);
  checkSignatures(executor, content, status);
  writeSnapshotRow(store, { id: head.blockId, state: { state: content.checksum, signatures: content.signatures }, other: [] });
  writeLogStart(store, blockNum);
  return { blockNum, blockId: head.blockId };
}

/** The head block's header must be the status row's head; the genesis block's id the chain id. */
function checkHeaders(store: Store, status: StatusRow): void {
  const head = status.head!;
  const block = readBlock(store, head.header.blockNum);
  if (!block || !equalBytes(computeBlockId(block.header), head.blockId)) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the snapshot does not hold the header of its head block ${head.header.blockNum}`);
  }
  if (!equalBytes(block.header.consensusState, sha256(JointConsensus.pack(status.consensus)))) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the head block's consensusState is not the hash of the snapshot's consensus`);
  }
  const genesis = readBlock(store, 2);
  if (!genesis || !equalBytes(computeBlockId(genesis.header), status.chainId)) {
    throw new SnapshotError('SNAPSHOT_HEAD', 'the snapshot does not hold the genesis header matching its chain id');
  }
}

/**
 * Every signature must verify (under the snapshot state's verify services) and at least the weak
 * threshold of current producers must have signed.
 */
function checkSignatures(executor: Executor, content: SnapshotContent, status: StatusRow): void {
  const consensus = status.consensus.current;
  for (const signature of content.signatures) {
    const failure = stateSignatureFailure(executor, content.checksum, signature);
    if (failure) throw new SnapshotError('SNAPSHOT_SIGNATURES', `the signature of ${accountNameFromNumber(signature.account)} does not verify: ${failure.message}`);
  }
  const producers = signingProducers(consensus, content.signatures);
  const needed = weakThreshold(consensus);
  if (producers.size < needed) {
    throw new SnapshotError('SNAPSHOT_SIGNATURES', `not enough block producer signatures on the snapshot: ${producers.size} of the ${needed} needed`);
  }
}
