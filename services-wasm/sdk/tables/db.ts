// Database ids (docs/host-abi.md §4) and the raw key-value operations on guest byte arrays.

import { kvGet, kvGreaterEqual, kvLessThan, kvMax, kvPut, kvRemove, kvRange, NONE } from "../host";
import { takeKey, takeResult } from "../result";

export enum DbId {
  /** Service tables (objective, read/write by the owner in transactions). */
  service = 0,
  /** Derived data for queries; written in transactions, read only in queries. */
  writeOnly = 1,
  native = 2,
  blockLog = 3,
  historyEvent = 4,
  uiEvent = 5,
  merkleEvent = 6,
  /** Node-local data (queries and callbacks; needs checkoutSubjective). */
  subjective = 64,
  nativeSubjective = 65,
  /** Node-local data kept only while the node runs (queries and callbacks; needs checkoutSubjective). */
  session = 66,
  /** Scratch space discarded when the execution context ends. */
  temporary = 67,
}

/** A key and its value, as an iteration step returns them. */
export class KeyValue {
  constructor(public key: Uint8Array, public value: Uint8Array) {}
}

export function put(db: DbId, key: Uint8Array, value: Uint8Array): void {
  kvPut(<u32>db, key.dataStart, key.length, value.dataStart, value.length);
}

export function remove(db: DbId, key: Uint8Array): void {
  kvRemove(<u32>db, key.dataStart, key.length);
}

/** The value stored at `key`, or null. */
export function get(db: DbId, key: Uint8Array): Uint8Array | null {
  const size = kvGet(<u32>db, key.dataStart, key.length);
  return size == NONE ? null : takeResult(size);
}

function entry(size: u32): KeyValue | null {
  if (size == NONE) return null;
  const value = takeResult(size);
  return new KeyValue(takeKey(), value);
}

/** The first entry with key >= `key` whose key starts with key[0, matchLength), or null. */
export function greaterEqual(db: DbId, key: Uint8Array, matchLength: u32): KeyValue | null {
  return entry(kvGreaterEqual(<u32>db, key.dataStart, key.length, matchLength));
}

/** The last entry with key < `key` whose key starts with key[0, matchLength), or null. */
export function lessThan(db: DbId, key: Uint8Array, matchLength: u32): KeyValue | null {
  return entry(kvLessThan(<u32>db, key.dataStart, key.length, matchLength));
}

/** The last entry whose key starts with `prefix`, or null. */
export function max(db: DbId, prefix: Uint8Array): KeyValue | null {
  return entry(kvMax(<u32>db, prefix.dataStart, prefix.length));
}

/**
 * Up to `maxRows` entries from greaterEqual(`key`, `matchLength`) on, in key order, below `upper`
 * when given, read in one host call (kvRange: RPC mode only, docs/host-abi.md §3). Keys and
 * values are views of one copy of the host's reply.
 */
export function range(db: DbId, key: Uint8Array, matchLength: u32, upper: Uint8Array | null, maxRows: u32): Array<KeyValue> {
  const upperPtr = upper === null ? 0 : upper.dataStart;
  const upperLen = upper === null ? 0 : <u32>upper.length;
  const packed = takeResult(kvRange(<u32>db, key.dataStart, key.length, matchLength, upperPtr, upperLen, maxRows));
  const out = new Array<KeyValue>();
  let at = 0;
  while (at < packed.length) {
    const keyLength = <i32>load<u32>(packed.dataStart + at);
    const k = packed.subarray(at + 4, at + 4 + keyLength);
    at += 4 + keyLength;
    const valueLength = <i32>load<u32>(packed.dataStart + at);
    const v = packed.subarray(at + 4, at + 4 + valueLength);
    at += 4 + valueLength;
    out.push(new KeyValue(k, v));
  }
  return out;
}
