// The host's result buffers (host-abi.md §2): imports that return data leave it in the value
// buffer V (and the key buffer K) and return its size; these copy it into guest memory.

import { getKey, getResult } from "./host";

/** Copies the value buffer V, whose size the last data-returning import returned. */
export function takeResult(size: u32): Uint8Array {
  const out = new Uint8Array(size);
  if (size > 0) getResult(out.dataStart, size, 0);
  return out;
}

/** Copies the key buffer K (set by kvGreaterEqual, kvLessThan and kvMax). */
export function takeKey(): Uint8Array {
  const size = getKey(0, 0);
  const out = new Uint8Array(size);
  if (size > 0) getKey(out.dataStart, size);
  return out;
}
