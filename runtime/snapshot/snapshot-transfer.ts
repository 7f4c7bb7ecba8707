// A snapshot over P2P (docs/p2p.md §7.4): the sender's BlockHeaderMessages (the consensus-change
// headers from genesis on, ending with the snapshot block's), SnapshotPartMessages covering the
// service database and then the native one, about 1 MiB each, and the SnapshotVerifyMessage with the checksum and
// signatures; the receiver puts them together into a SnapshotContent for applySnapshot.

import { DbId } from '../../host-api/abi/databases.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import type { StateChecksum, StateSignature } from '../../host-api/types/native.js';
import { readConsensusChanges } from '../chain/consensus-changes.js';
import type { KvEntry, KvReader } from '../db/store.js';
import type { KeptStates } from './kept-states.js';
import { headerRows, lightHeaderBlocks, lightHeaders } from './light-headers.js';
import { newestSignedState } from './signed-states.js';
import { SnapshotError } from './snapshot-error.js';
import { encodedRows, storeDbOf, type FileRow, type SnapshotContent } from './snapshot-file.js';
import { STATE_DBS } from './state-rows.js';

/** A part's rows hold about this many bytes, counting key + value + 16 per row (psibase's measure). */
const PART_BYTES = 1 << 20;

export interface SnapshotPart {
  readonly blockId: Uint8Array;
  readonly db: number;
  readonly lowKey: Uint8Array;
  readonly highKey: Uint8Array;
  readonly rows: { key: Uint8Array; value: Uint8Array }[];
}

export interface SnapshotVerify {
  readonly blockId: Uint8Array;
  readonly hash: StateChecksum;
  readonly signatures: StateSignature[];
}

/** What a node sends to pass its newest signed snapshot on, in order. */
export interface SnapshotOffer {
  /** The snapshot block, with its signature and aux data: the link goes on streaming after it. */
  readonly block: SignedBlock;
  readonly headers: SignedBlock[];
  readonly parts: SnapshotPart[];
  readonly verify: SnapshotVerify;
}

const EMPTY = new Uint8Array(0);

/** The newest signed snapshot this node kept, as messages; undefined when it has none. */
export function snapshotOffer(store: KvReader, kept: KeptStates): SnapshotOffer | undefined {
  let state;
  try {
    state = newestSignedState(store, kept);
  } catch (err) {
    if (err instanceof SnapshotError && err.code === 'SNAPSHOT_NONE') return undefined;
    throw err;
  }
  // The consensus-change headers, ending with the snapshot block (docs/p2p.md §7.4).
  const headers = lightHeaderBlocks(store, lightHeaders(readConsensusChanges(store), state.status));
  const block = headers[headers.length - 1]!;
  return { block, headers, parts: partsOf(state.blockId, state.rows), verify: { blockId: state.blockId, hash: state.checksum, signatures: state.signatures } };
}

/** Splits kept rows into parts: each database from the empty key to the end, in ranges. */
function partsOf(blockId: Uint8Array, rows: Uint8Array): SnapshotPart[] {
  const rowsByDb = new Map<number, KvEntry[]>(STATE_DBS.map((db) => [db, []]));
  for (const { fileDb, key, value } of encodedRows(rows)) rowsByDb.get(storeDbOf(fileDb)!)!.push({ key, value });
  const parts: SnapshotPart[] = [];
  for (const [db, dbRows] of rowsByDb) {
    let current: SnapshotPart = { blockId, db, lowKey: EMPTY, highKey: EMPTY, rows: [] };
    let size = 0;
    for (const { key, value } of dbRows) {
      if (size >= PART_BYTES) {
        parts.push({ ...current, highKey: key });
        current = { blockId, db, lowKey: key, highKey: EMPTY, rows: [] };
        size = 0;
      }
      current.rows.push({ key, value });
      size += key.length + value.length + 16;
    }
    parts.push(current);
  }
  return parts;
}

/** The rows a snapshot received from a peer may hold, in PART_BYTES' measure: it is held in memory until it loads. */
export const MAX_RECEIVED_SNAPSHOT_BYTES = 1024 * 1024 * 1024;

/**
 * Puts a snapshot together from one peer's messages. Parts must follow each other without gap or
 * overlap, the service database first, and hold MAX_RECEIVED_SNAPSHOT_BYTES at most; anything
 * else is refused with a SnapshotError.
 */
export class SnapshotReceiver {
  private blockId: Uint8Array | undefined;
  private readonly state: FileRow[] = [];
  private readonly extra: FileRow[] = [];
  /** The next part expected: its database and low key; undefined once both are complete. */
  private next: { db: number; lowKey: Uint8Array } | undefined = { db: DbId.service, lowKey: EMPTY };
  private bytes = 0;
  private blockNum = 0;

  /** What has arrived: the block (0 before its header), the state rows and their bytes. */
  get received(): { block: number; rows: number; bytes: number } {
    return { block: this.blockNum, rows: this.state.length, bytes: this.bytes };
  }

  header(signed: SignedBlock): void {
    this.blockNum = signed.block.header.blockNum;
    const rows = headerRows(signed);
    for (const row of rows) this.count(row);
    this.extra.push(...rows);
  }

  part(part: SnapshotPart): void {
    this.sameBlock(part.blockId);
    const next = this.next;
    if (!next || part.db !== next.db || !equalBytes(part.lowKey, next.lowKey)) {
      throw new SnapshotError('SNAPSHOT_BAD_ROW', `snapshot part of database ${part.db} from key ${bytesToHex(part.lowKey)} does not follow the parts before it`);
    }
    for (const { key, value } of part.rows) {
      if (Buffer.compare(key, part.lowKey) < 0 || (part.highKey.length > 0 && Buffer.compare(key, part.highKey) >= 0)) {
        throw new SnapshotError('SNAPSHOT_BAD_ROW', `snapshot row ${bytesToHex(key)} lies outside its part`);
      }
      const row = { db: part.db, key, value };
      this.count(row);
      this.state.push(row);
    }
    if (part.highKey.length > 0) this.next = { db: part.db, lowKey: part.highKey };
    else this.next = part.db === DbId.service ? { db: DbId.native, lowKey: EMPTY } : undefined;
  }

  /** The whole snapshot, once its verify message came. */
  verify(verify: SnapshotVerify): SnapshotContent {
    this.sameBlock(verify.blockId);
    if (this.next) throw new SnapshotError('SNAPSHOT_BAD_ROW', 'the snapshot parts do not cover both databases');
    return { state: this.state, extra: this.extra, checksum: verify.hash, signatures: verify.signatures };
  }

  private count(row: FileRow): void {
    this.bytes += row.key.length + row.value.length + 16;
    if (this.bytes > MAX_RECEIVED_SNAPSHOT_BYTES) {
      throw new SnapshotError('SNAPSHOT_TOO_LARGE', `the snapshot holds more than the ${MAX_RECEIVED_SNAPSHOT_BYTES / (1024 * 1024)} MiB of rows this node takes from a peer`);
    }
  }

  private sameBlock(blockId: Uint8Array): void {
    this.blockId ??= blockId;
    if (!equalBytes(this.blockId, blockId)) throw new SnapshotError('SNAPSHOT_BAD_ROW', 'snapshot messages of two blocks are mixed');
  }
}
