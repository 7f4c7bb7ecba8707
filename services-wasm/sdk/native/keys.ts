// Keys of the host-owned native tables (docs/host-abi.md §8): table (u16 BE), index 0, encoded key.

import { AccountNumber } from "../names/types";
import { Checksum256 } from "../fracpack/checksum";
import { Writer } from "../fracpack/writer";

export enum NativeTable {
  status = 1,
  code = 2,
  codeByHash = 3,
  databaseStatus = 4,
  transactionWasmConfig = 5,
  proofWasmConfig = 6,
  config = 7,
  notify = 8,
  scheduledSnapshot = 12,
}

/** The length of table + index: iteration over one native table stays inside it. */
export const NATIVE_PREFIX_LENGTH: u32 = 3;

function keyWriter(table: NativeTable): Writer {
  const w = new Writer(48);
  w.u16BE(<u16>table);
  w.u8(0);
  return w;
}

export function nativeTablePrefix(table: NativeTable): Uint8Array {
  return keyWriter(table).finish();
}

/** The key of the native row whose key field is the u32 `field`. */
export function nativeKeyOf(table: NativeTable, field: u32): Uint8Array {
  const w = keyWriter(table);
  w.u32BE(field);
  return w.finish();
}

export function statusKey(): Uint8Array {
  return nativeTablePrefix(NativeTable.status);
}

export function codeKey(account: AccountNumber): Uint8Array {
  const w = keyWriter(NativeTable.code);
  w.u64BE(account);
  return w.finish();
}

export function codeByHashKey(codeHash: Checksum256, vmType: u8, vmVersion: u8): Uint8Array {
  const w = keyWriter(NativeTable.codeByHash);
  w.bytes(codeHash.bytes);
  w.u8(vmType);
  w.u8(vmVersion);
  return w.finish();
}
