// Keys of the native tables transact reads and writes (host-abi.md §8): table (u16 BE), index 0,
// then the row's key fields.

import { Writer } from "../sdk/index";

export enum NativeTable {
  status = 1,
  transactionWasmConfig = 5,
  proofWasmConfig = 6,
  config = 7,
  notify = 8,
  scheduledSnapshot = 12,
}

function keyWriter(table: NativeTable): Writer {
  const w = new Writer();
  w.u16BE(<u16>table);
  w.u8(0);
  return w;
}

/** The key of a native table's only row. */
export function nativeKey(table: NativeTable): Uint8Array {
  return keyWriter(table).finish();
}

/** The key of the native row whose key field is the u32 `field`. */
export function nativeKeyOf(table: NativeTable, field: u32): Uint8Array {
  const w = keyWriter(table);
  w.u32BE(field);
  return w.finish();
}
