// Putting a snapshot into a node's store (docs/p2p.md §7.3 loading, §7.4 apply_snapshot), from a
// file or from a peer: the content is checked whole in the store's uncommitted overlays (rows in
// key order matching the checksum, the head, the consensus-change headers light-validated from
// this node's chain or from genesis, the signatures of the producers they prove), then
// the state is replaced in one commit, with the SnapshotRow and LogTruncateRow written. A refused
// snapshot leaves the store as it was. The snapshot's state is kept, so this node can pass it on.

import { equalBytes } from '../../host-api/encoding/bytes.js';
import { DbId } from '../../host-api/abi/databases.js';
import { blockId as computeBlockId, blockNumOfId } from '../../host-api/chain/block-id.js';
import type { Consensus } from '../../host-api/types/index.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import { JointConsensus, type StateChecksum, type StatusRow } from '../../host-api/types/native.js';
import { verifyCodeRows } from '../chain/auth-services.js';
import { readBlock, writeBlock, writeLogStart } from '../chain/block-log.js';
import { readStatus } from '../chain/chain-state.js';
import { writeConsensusChange } from '../chain/consensus-changes.js';
import { readStoredBlock } from '../chain/stored-block.js';
import { sha256 } from '../crypto/sha256.js';
import type { Store } from '../db/store.js';
import type { ClaimVerifier } from '../chain/interface.js';
import type { KeptStates } from './kept-states.js';
import { LightValidator } from './light-validator.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRows, type SnapshotContent } from './snapshot-file.js';
import { sameChecksum, writeSnapshotRow } from './snapshot-rows.js';
import { startStateChecksum } from './state-checksum.js';
import { rowsOf } from '../db/prefix-rows.js';
import { StateMerkle, STATE_DBS } from './state-rows.js';
import { signingProducers, stateSignatureFailure, weakThreshold } from './state-signatures.js';

export interface LoadedSnapshot {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
}

/**
 * Checks `content` and makes it the state of `store`; `claims` runs on `store` (it verifies the
 * signatures under the snapshot's own verify services). Throws a SnapshotError, with the store
 * unchanged, when the snapshot is refused.
 */
/**
 * `report` hears each step as it begins (the rows' checksum, writing them, the headers and
 * signatures, the commit): a snapshot of a large state takes a while, and its loader says how far
 * it is.
 */
export function applySnapshot(
  store: Store, claims: ClaimVerifier, kept: KeptStates, content: SnapshotContent,
  threshold: (consensus: Consensus) => number = weakThreshold, report: (step: string) => void = () => {},
): LoadedSnapshot {
  report(`checking the checksum of ${content.state.length} state rows`);
  requireChecksum(checksumOf(content), content);
  let loaded: LoadedSnapshot;
  try {
    loaded = stage(store, claims, content, threshold, report);
  } catch (err) {
    abort(store);
    throw err;
  }
  return commitLoaded(store, kept, loaded, encodeRows(content.state), report);
}

/**
 * applySnapshot with the checksum computed on a thread of its own while the rows are written
 * (state-checksum.ts): the same checks, the same refusals (a bad checksum first), the same
 * store after it.
 */
export async function applySnapshotChecksummedAside(
  store: Store, claims: ClaimVerifier, kept: KeptStates, content: SnapshotContent,
  threshold: (consensus: Consensus) => number = weakThreshold, report: (step: string) => void = () => {},
): Promise<LoadedSnapshot> {
  report(`checking the checksum of ${content.state.length} state rows, aside`);
  const checksum = startStateChecksum(content.state);
  let loaded: LoadedSnapshot;
  try {
    loaded = stage(store, claims, content, threshold, report);
    requireChecksum(await checksum.result, content);
  } catch (err) {
    abort(store);
    // A snapshot whose rows do not match its checksum is refused for that, whatever else is wrong.
    if (!(err instanceof SnapshotError && (err.code === 'SNAPSHOT_CHECKSUM' || err.code === 'SNAPSHOT_BAD_ROW'))) {
      requireChecksum(await checksum.result, content);
    }
    throw err;
  }
  return commitLoaded(store, kept, loaded, checksum.rows, report);
}

function requireChecksum(computed: StateChecksum, content: SnapshotContent): void {
  if (!sameChecksum(computed, content.checksum)) {
    throw new SnapshotError('SNAPSHOT_CHECKSUM', 'the snapshot rows do not match the checksum in its footer');
  }
}

function abort(store: Store): void {
  store.abort();
  store.subjective.abort();
}

/** Commits the staged snapshot and keeps its state (`rows`, encoded as a file holds them). */
function commitLoaded(store: Store, kept: KeptStates, loaded: LoadedSnapshot, rows: Uint8Array, report: (step: string) => void): LoadedSnapshot {
  report(`committing the state of block ${loaded.blockNum}`);
  store.commitBlock(loaded.blockNum, loaded.blockNum);
  store.subjective.commit();
  kept.write(loaded.blockNum, loaded.blockId, rows);
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

/**
 * Loads a development chain's own state file (dev-state.ts) into `store`, which holds no chain:
 * its rows must match its checksum and its head block be its status row's, and nothing more is
 * asked (no producer proofs: the file is the developer's own, and a fork's producer change is in
 * no header, docs/chain.md §9). Throws a SnapshotError, with the store unchanged, when refused.
 */
export function applyDevState(store: Store, content: SnapshotContent): LoadedSnapshot {
  if (readStatus(store)?.head) throw new SnapshotError('SNAPSHOT_NOT_NEWER', 'the database holds a chain already: a state file is loaded into an empty one');
  if (!sameChecksum(checksumOf(content), content.checksum)) throw new SnapshotError('SNAPSHOT_CHECKSUM', 'the state file\'s rows do not match the checksum in its footer');
  let loaded: LoadedSnapshot;
  try {
    const status = writeRows(store, content);
    checkHeadBlock(store, status);
    loaded = { blockNum: status.head!.header.blockNum, blockId: status.head!.blockId };
    writeLogStart(store, loaded.blockNum);
  } catch (err) {
    store.abort();
    store.subjective.abort();
    throw err;
  }
  store.commitBlock(loaded.blockNum, loaded.blockNum);
  store.subjective.commit();
  return loaded;
}

/** Replaces the store's state by the snapshot's rows (uncommitted) and adds its other rows; the status row it leaves, which has a head. */
function writeRows(store: Store, content: SnapshotContent): StatusRow {
  for (const db of STATE_DBS) {
    const keys = [...rowsOf(store, db)].map((row) => row.key);
    for (const key of keys) store.remove(db, key);
  }
  for (const { db, key, value } of content.state) store.put(db, key, value);
  // Headers, signatures and aux data this node has already are its own (psibase keeps them too).
  for (const { db, key, value } of content.extra) if (store.get(db, key) === undefined) store.put(db, key, value);
  const status = readStatus(store);
  if (!status?.head) throw new SnapshotError('SNAPSHOT_HEAD', 'the snapshot state has no head block');
  return status;
}

/** Writes the snapshot into the store's uncommitted overlays and checks it there. */
function stage(store: Store, claims: ClaimVerifier, content: SnapshotContent, threshold: (consensus: Consensus) => number, report: (step: string) => void): LoadedSnapshot {
  const local = readStatus(store);
  const validator = new LightValidator(local, claims);
  report(`writing ${content.state.length} state rows`);
  const status = writeRows(store, content);
  const head = status.head!;
  const blockNum = head.header.blockNum;
  if (local?.head) {
    if (!equalBytes(local.chainId, status.chainId)) {
      throw new SnapshotError('SNAPSHOT_OTHER_CHAIN', `the database holds chain ${bytesToHex(local.chainId)}, the snapshot chain ${bytesToHex(status.chainId)}`);
    }
    if (local.head.header.blockNum >= blockNum) {
      throw new SnapshotError('SNAPSHOT_NOT_NEWER', `the database is at block ${local.head.header.blockNum}, at or past the snapshot's block ${blockNum}`);
    }
  }
  checkHead(store, status);
  checkAuthServices(store, status);
  const headers = headerNums(content);
  report(`checking ${headers.length} block headers and the producers' signatures`);
  try {
    if (!local?.head) checkChainId(store, status, headers);
    validateHeaders(store, validator, headers, blockNum);
  } catch (err) {
    if (err instanceof FracpackError) throw new SnapshotError('SNAPSHOT_BAD_ROW', `a header, signature or aux data row does not decode: ${err.message}`);
    throw err;
  }
  const currentOnly = (consensus: JointConsensus) => JointConsensus.pack({ current: consensus.current, next: null });
  if (!equalBytes(currentOnly(validator.consensus), currentOnly(status.consensus))) {
    throw new SnapshotError('SNAPSHOT_HEADERS', `the snapshot's producers are not those its headers prove (validated up to block ${validator.blockNum})`);
  }
  checkSignatures(claims, content, status, threshold);
  writeSnapshotRow(store, { id: head.blockId, state: { state: content.checksum, signatures: content.signatures }, other: [] });
  // Headers carry no transactions: the log holds whole blocks from the snapshot block on.
  writeLogStart(store, blockNum);
  return { blockNum, blockId: head.blockId };
}

/**
 * The status row's head must be its own header's id and carry the hash of the snapshot's
 * consensus; the head block in the log (this node keeps it, docs/p2p.md §7.3) is that header.
 */
function checkHead(store: Store, status: StatusRow): void {
  if (!equalBytes(status.head!.header.consensusState, sha256(JointConsensus.pack(status.consensus)))) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the head block's consensusState is not the hash of the snapshot's consensus`);
  }
  checkHeadBlock(store, status);
}

/** The status row's head must be its own header's id, and the head block in the log that header (written when missing). */
function checkHeadBlock(store: Store, status: StatusRow): void {
  const head = status.head!;
  if (!equalBytes(computeBlockId(head.header), head.blockId)) throw new SnapshotError('SNAPSHOT_HEAD', 'the head block id does not match its header');
  const block = readBlock(store, head.header.blockNum);
  if (!block) writeBlock(store, { header: head.header, transactions: [] });
  else if (!equalBytes(computeBlockId(block.header), head.blockId)) {
    throw new SnapshotError('SNAPSHOT_HEAD', `the snapshot's header of block ${head.header.blockNum} is not its head block`);
  }
}

/**
 * The state's verify services (its code rows with isVerify) must be those of the consensus the
 * head carries: the pending one during joint consensus, else the current one (psibase's
 * load-snapshot; docs/p2p.md §7.3).
 */
function checkAuthServices(store: Store, status: StatusRow): void {
  const consensus = status.consensus.next?.consensus ?? status.consensus.current;
  const pack = (services: Consensus['services']) => JointConsensus.pack({ current: { ...consensus, services }, next: null });
  if (!equalBytes(pack(verifyCodeRows(store)), pack(consensus.services))) {
    throw new SnapshotError('SNAPSHOT_HEAD', 'the verify services of the snapshot state are not those of its head block\'s consensus');
  }
}

/** The block numbers of the headers in the snapshot, ascending. */
function headerNums(content: SnapshotContent): number[] {
  return content.extra.filter((r) => r.db === DbId.blockLog).map((r) => blockNumOfKey(r.key)).sort((a, b) => a - b);
}

function blockNumOfKey(key: Uint8Array): number {
  if (key.length !== 4) throw new SnapshotError('SNAPSHOT_BAD_ROW', `a block log key of ${key.length} bytes`);
  return Buffer.from(key).readUInt32BE(0);
}

/** A new database takes the chain id from the first header: it must be that block (psibase's verifyChainId). */
function checkChainId(store: Store, status: StatusRow, headers: readonly number[]): void {
  const first = headers.length > 0 ? readBlock(store, headers[0]!) : undefined;
  const id = first ? computeBlockId(first.header) : status.head!.blockId;
  if (!equalBytes(id, status.chainId)) {
    throw new SnapshotError('SNAPSHOT_HEADERS', `the snapshot's first header (block ${blockNumOfId(id)}) is not the block of its chain id: it cannot be loaded into a new database`);
  }
}

/**
 * Light-validates the headers below the snapshot block after the last block this node knows
 * (docs/p2p.md §7.3), and records the producer changes they end, as psibase's load-snapshot does.
 */
function validateHeaders(store: Store, validator: LightValidator, headers: readonly number[], blockNum: number): void {
  for (const num of headers) {
    if (num <= validator.blockNum) continue;
    if (num >= blockNum) break;
    const change = validator.push(readStoredBlock(store, num)!.signed);
    if (change) writeConsensusChange(store, change);
  }
}

/**
 * Every signature must verify (under the snapshot state's verify services) and at least the weak
 * threshold of current producers must have signed.
 */
function checkSignatures(claims: ClaimVerifier, content: SnapshotContent, status: StatusRow, threshold: (consensus: Consensus) => number): void {
  const consensus = status.consensus.current;
  for (const signature of content.signatures) {
    const failure = stateSignatureFailure(claims, content.checksum, signature);
    if (failure) throw new SnapshotError('SNAPSHOT_SIGNATURES', `the signature of ${accountNameFromNumber(signature.account)} does not verify: ${failure.message}`);
  }
  const producers = signingProducers(consensus, content.signatures);
  const needed = threshold(consensus);
  if (producers.size < needed) {
    throw new SnapshotError('SNAPSHOT_SIGNATURES', `not enough block producer signatures on the snapshot: ${producers.size} of the ${needed} needed`);
  }
}
