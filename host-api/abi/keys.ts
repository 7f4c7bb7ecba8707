// The order-preserving key encoding of docs/host-abi.md §8: bytewise comparison of encoded keys
// orders them like the values. Unsigned ints big-endian; signed with the sign bit flipped;
// strings with 0x00 escaped as 00 01 and ended by 00 00.

import { utf8Bytes } from '../encoding/utf8.js';

export class KeyWriter {
  private parts: number[] = [];

  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }

  u16(v: number): this {
    this.parts.push((v >>> 8) & 0xff, v & 0xff);
    return this;
  }

  u32(v: number): this {
    this.parts.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
    return this;
  }

  u64(v: bigint): this {
    for (let shift = 56n; shift >= 0n; shift -= 8n) this.parts.push(Number((v >> shift) & 0xffn));
    return this;
  }

  i32(v: number): this {
    return this.u32((v ^ 0x80000000) >>> 0);
  }

  i64(v: bigint): this {
    return this.u64(BigInt.asUintN(64, v) ^ (1n << 63n));
  }

  string(s: string): this {
    for (const b of utf8Bytes(s)) {
      this.parts.push(b);
      if (b === 0) this.parts.push(1);
    }
    this.parts.push(0, 0);
    return this;
  }

  bytes(b: Uint8Array): this {
    for (const x of b) this.parts.push(x);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** A service table row key: account, table, index (0 = primary), then the encoded key. */
export function serviceTableKey(account: bigint, table: number, index = 0): KeyWriter {
  return new KeyWriter().u64(account).u16(table).u8(index);
}

/** A native table row key: table, index 0, then the encoded key. */
export function nativeTableKey(table: number): KeyWriter {
  return new KeyWriter().u16(table).u8(0);
}

/** Native table numbers (docs/host-abi.md §8). */
export const NativeTable = {
  status: 1,
  code: 2,
  codeByHash: 3,
  databaseStatus: 4,
  transactionWasmConfig: 5,
  proofWasmConfig: 6,
  config: 7,
  notify: 8,
  /** In nativeSubjective (65): a block's auxConsensusData, keyed by block id (docs/p2p.md §3.5). */
  blockData: 9,
  /** In nativeSubjective: the ConsensusChangeRows, keyed by the block that started the change (docs/p2p.md §7.3). */
  consensusChange: 10,
  /** In nativeSubjective: a block's SnapshotRow, keyed by block id (docs/p2p.md §7.2). */
  snapshot: 11,
  scheduledSnapshot: 12,
  /** In nativeSubjective: where the block log starts after a loaded snapshot (docs/p2p.md §7.3). */
  logTruncate: 13,
} as const;

export function statusKey(): Uint8Array {
  return nativeTableKey(NativeTable.status).finish();
}

export function codeKey(account: bigint): Uint8Array {
  return nativeTableKey(NativeTable.code).u64(account).finish();
}

export function codeByHashKey(codeHash: Uint8Array, vmType = 0, vmVersion = 0): Uint8Array {
  return nativeTableKey(NativeTable.codeByHash).bytes(codeHash).u8(vmType).u8(vmVersion).finish();
}

export function databaseStatusKey(): Uint8Array {
  return nativeTableKey(NativeTable.databaseStatus).finish();
}

export function configKey(): Uint8Array {
  return nativeTableKey(NativeTable.config).finish();
}

export function notifyKey(type: number): Uint8Array {
  return nativeTableKey(NativeTable.notify).u32(type).finish();
}

export function blockDataKey(blockId: Uint8Array): Uint8Array {
  return nativeTableKey(NativeTable.blockData).bytes(blockId).finish();
}

export function snapshotKey(blockId: Uint8Array): Uint8Array {
  return nativeTableKey(NativeTable.snapshot).bytes(blockId).finish();
}

export function scheduledSnapshotKey(blockNum: number): Uint8Array {
  return nativeTableKey(NativeTable.scheduledSnapshot).u32(blockNum).finish();
}

export function consensusChangeKey(start: number): Uint8Array {
  return nativeTableKey(NativeTable.consensusChange).u32(start).finish();
}

export function logTruncateKey(): Uint8Array {
  return nativeTableKey(NativeTable.logTruncate).finish();
}

/** Event records are keyed by their id. */
export function eventKey(id: bigint): Uint8Array {
  return new KeyWriter().u64(id).finish();
}

/** Block log and proofs are keyed by block number. */
export function blockKey(blockNum: number): Uint8Array {
  return new KeyWriter().u32(blockNum).finish();
}
