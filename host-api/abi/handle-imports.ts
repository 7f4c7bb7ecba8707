import { i32, i64, signature, type HostImportSignature } from './imports.js';

// The host import table of the handle generation (docs/host-abi.md §12): psibase's service ABI
// since v0.21 as its HEAD has it, where the kv calls take handles that kvOpen, kvOpenAt and
// importHandles give out, and events go through the `events` service. Names it shares with the
// database-id generation (imports.ts) keep their signatures but act on handles here.

export const HANDLE_HOST_IMPORTS = {
  getResult: [signature([i32, i32, i32], [i32])],
  getKey: [signature([i32, i32], [i32])],
  writeConsole: [signature([i32, i32])],
  abortMessage: [signature([i32, i32])],
  clockTimeGet: [signature([i32, i32], [i32])],
  getRandom: [signature([i32, i32])],
  setMaxCpuTime: [signature([i64])],
  getCurrentAction: [signature([], [i32])],
  call: [signature([i32, i32, i64], [i32])],
  setRetval: [signature([i32, i32])],
  // (db, prefixPtr, prefixLen, mode) -> handle
  kvOpen: [signature([i32, i32, i32, i32], [i32])],
  // (handle, prefixPtr, prefixLen, mode) -> handle
  kvOpenAt: [signature([i32, i32, i32, i32], [i32])],
  kvClose: [signature([i32])],
  // (ptr, len) of a packed vector<u32> of handles
  exportHandles: [signature([i32, i32])],
  // -> len(V), V = a packed vector<u32> of the handles received
  importHandles: [signature([], [i32])],
  kvPut: [signature([i32, i32, i32, i32, i32])],
  kvRemove: [signature([i32, i32, i32])],
  kvGet: [signature([i32, i32, i32], [i32])],
  kvGreaterEqual: [signature([i32, i32, i32, i32], [i32])],
  kvLessThan: [signature([i32, i32, i32, i32], [i32])],
  kvMax: [signature([i32, i32, i32], [i32])],
  checkoutSubjective: [signature([])],
  commitSubjective: [signature([], [i32])],
  abortSubjective: [signature([])],
  // (argsPtr, argsLen) -> socket, or a negative errno
  socketOpen: [signature([i32, i32], [i32])],
  // (fd, ptr, len, flags) -> errno
  socketSend: [signature([i32, i32, i32, i32], [i32])],
  // (fd, mask, value) -> errno
  socketSetFlags: [signature([i32, i32, i32], [i32])],
  // (namePtr, nameLen) -> len(V), or NONE
  readFile: [signature([i32, i32], [i32])],
} as const satisfies Record<string, readonly HostImportSignature[]>;

export type HandleImportName = keyof typeof HANDLE_HOST_IMPORTS;
