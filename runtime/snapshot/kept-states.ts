// The state of each scheduled snapshot block, kept beside the database (docs/p2p.md §7.2 "the
// state of a snapshot block is kept"). This node keeps one state, not one per block
// (docs/chain.md §1.6), so the rows of the service and native databases are copied out when the
// block is committed, as the snapshot file's rows (snapshot-file.ts), and hashed on the way.
// create-snapshot and the P2P transfer read them from there.

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import { replaceFile } from '../fs/atomic-file.js';
import type { KvReader } from '../db/store.js';
import { encodeRow, fileDbOf } from './snapshot-file.js';
import type { StateChecksum } from '../../host-api/types/native.js';
import { rowsOf } from '../db/prefix-rows.js';
import { StateMerkle, STATE_DBS } from './state-rows.js';

/** How many kept states stay on disk: the newest, and the one before while the newest is being signed. */
const KEPT = 2;
/** Rows are written in batches of about this many bytes. */
const BATCH_BYTES = 1 << 20;

/** Whether the state of a block has the signatures a peer needs to take it. */
export type IsSigned = (blockId: Uint8Array) => boolean;

export class KeptStates {
  constructor(private readonly directory: string) {}

  /** The directory of a node's kept states, beside its database. */
  static of(nodeDir: string): KeptStates {
    return new KeptStates(join(nodeDir, 'snapshot-states'));
  }

  /**
   * Copies the state `reader` holds now as the state of block `blockNum`/`blockId`; returns its
   * checksum. Older states are dropped as `prune` says.
   */
  keep(blockNum: number, blockId: Uint8Array, reader: KvReader, isSigned: IsSigned): StateChecksum {
    mkdirSync(this.directory, { recursive: true });
    const file = this.fileOf(blockNum, blockId);
    const temporary = `${file}.tmp`;
    const fd = openSync(temporary, 'w');
    const merkle = new StateMerkle();
    try {
      let batch: Uint8Array[] = [];
      let size = 0;
      const flush = () => {
        writeSync(fd, Buffer.concat(batch));
        batch = [];
        size = 0;
      };
      for (const db of STATE_DBS) {
        for (const { key, value } of rowsOf(reader, db)) {
          merkle.push(db, key, value);
          const row = encodeRow(fileDbOf(db), key, value);
          batch.push(row);
          size += row.length;
          if (size >= BATCH_BYTES) flush();
        }
      }
      flush();
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    this.prune(isSigned);
    return merkle.checksum();
  }

  /** Keeps `rows` (encoded as snapshot rows) of a signed state, block `blockNum`/`blockId`, as the newest. */
  write(blockNum: number, blockId: Uint8Array, rows: Uint8Array): void {
    mkdirSync(this.directory, { recursive: true });
    const file = this.fileOf(blockNum, blockId);
    replaceFile(file, rows);
    this.prune((id) => equalBytes(id, blockId));
  }

  /** The kept rows of block `blockNum`/`blockId` as the file holds them, if kept. */
  rows(blockNum: number, blockId: Uint8Array): Uint8Array | undefined {
    const file = this.fileOf(blockNum, blockId);
    return existsSync(file) ? readFileSync(file) : undefined;
  }

  /** The blocks whose states are kept, ascending. */
  list(): { blockNum: number; blockId: Uint8Array }[] {
    if (!existsSync(this.directory)) return [];
    return readdirSync(this.directory).filter((f) => /^\d{10}-[0-9A-F]{64}\.rows$/.test(f)).sort()
      .map((f) => ({ blockNum: Number(f.slice(0, 10)), blockId: hexToBytes(f.slice(11, 75)) }));
  }

  private fileOf(blockNum: number, blockId: Uint8Array): string {
    // Zero-padded numbers sort in block order.
    return join(this.directory, `${String(blockNum).padStart(10, '0')}-${bytesToHex(blockId)}.rows`);
  }

  /**
   * Keeps the KEPT newest states, and the newest signed one as well when none of those is signed
   * yet; drops the rest. So a node whose newer states wait for their signatures (or never get
   * them, as states kept while catching up do) can still send a peer a snapshot.
   */
  private prune(isSigned: IsSigned): void {
    const states = this.list();
    const old = states.slice(0, Math.max(0, states.length - KEPT));
    const newestSigned = states.slice(old.length).some((s) => isSigned(s.blockId))
      ? undefined
      : old.filter((s) => isSigned(s.blockId)).pop();
    for (const s of old) if (s !== newestSigned) rmSync(this.fileOf(s.blockNum, s.blockId), { force: true });
  }
}
