// Kv handles: the handle generation of the host ABI (docs/host-abi.md §12). A module that uses
// anything here imports kvOpen or the handle transfer, so the node holds the whole module to that
// generation: its kv imports take handles where the rest of the SDK passes database ids, so a
// handle module reaches its databases through these functions only (Table and kv do not apply).

import { getResult, kvGet, NONE } from "../host";
import { takeResult } from "../result";

@external("env", "kvOpen")
declare function kvOpenRaw(db: u32, prefixPtr: usize, prefixLen: u32, mode: u32): u32;

@external("env", "kvOpenAt")
declare function kvOpenAtRaw(handle: u32, prefixPtr: usize, prefixLen: u32, mode: u32): u32;

@external("env", "kvClose")
declare function kvCloseRaw(handle: u32): void;

@external("env", "exportHandles")
declare function exportHandlesRaw(ptr: usize, len: u32): void;

@external("env", "importHandles")
declare function importHandlesRaw(): u32;

/** psibase HEAD's database ids, the numbers kvOpen takes (docs/host-abi.md §12.3). */
export enum HandleDb {
  service = 0,
  writeOnly = 1,
  native = 2,
  blockLog = 3,
  subjective = 64,
  nativeSubjective = 65,
  session = 66,
  nativeSession = 67,
  temporary = 68,
}

/** What a handle may do (psibase's KvMode). */
export enum KvMode {
  read = 1,
  write = 2,
  readWrite = 3,
}

export function isReadMode(mode: u8): bool {
  return (mode & KvMode.read) != 0;
}

export function isWriteMode(mode: u8): bool {
  return (mode & KvMode.write) != 0;
}

/** Opens `db` under `prefix` (privileged services only); the handle. */
export function kvOpen(db: u32, prefix: Uint8Array, mode: u32): u32 {
  return kvOpenRaw(db, prefix.dataStart, prefix.length, mode);
}

/** A handle for the part of `handle`'s keys that start with `prefix`, with a mode no wider. */
export function kvOpenAt(handle: u32, prefix: Uint8Array, mode: u32): u32 {
  return kvOpenAtRaw(handle, prefix.dataStart, prefix.length, mode);
}

export function kvClose(handle: u32): void {
  kvCloseRaw(handle);
}

/** The value at `key` (relative to the handle's prefix), or null. */
export function kvGetAt(handle: u32, key: Uint8Array): Uint8Array | null {
  const size = kvGet(handle, key.dataStart, key.length);
  return size == NONE ? null : takeResult(size);
}

/** Hands `handles` to the other side of the next call or return (a packed vector<u32>). */
export function exportHandles(handles: Array<u32>): void {
  const packed = new Uint8Array(4 + 4 * handles.length);
  store<u32>(packed.dataStart, 4 * handles.length);
  for (let i = 0; i < handles.length; i++) store<u32>(packed.dataStart + 4 + 4 * i, handles[i]);
  exportHandlesRaw(packed.dataStart, packed.length);
}

/** The handles the last call or return brought, numbered for this service. */
export function importHandles(): Array<u32> {
  const size = importHandlesRaw();
  const packed = new Uint8Array(size);
  if (size > 0) getResult(packed.dataStart, size, 0);
  const count = size >= 4 ? load<u32>(packed.dataStart) / 4 : 0;
  const handles = new Array<u32>(count);
  for (let i: u32 = 0; i < count; i++) handles[i] = load<u32>(packed.dataStart + 4 + 4 * i);
  return handles;
}
