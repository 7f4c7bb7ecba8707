// The host's result buffers (docs/host-abi.md §2): imports that return data leave it in the value
// buffer V (and the key buffer K) and return its size; these copy it into guest memory.

import { getKey, getResult } from "./host";

/**
 * Keys up to this size come out of K in one getKey call, through this area; a longer one (it
 * does not fit, so getKey only told its size) takes a second call. Table keys are mostly short.
 */
const KEY_SCRATCH_BYTES: u32 = 64;
const KEY_SCRATCH = memory.data(<i32>KEY_SCRATCH_BYTES);

/** Copies the value buffer V, whose size the last data-returning import returned. */
export function takeResult(size: u32): Uint8Array {
  const out = new Uint8Array(size);
  if (size > 0) getResult(out.dataStart, size, 0);
  return out;
}

/** Copies the key buffer K (set by kvGreaterEqual, kvLessThan and kvMax). */
export function takeKey(): Uint8Array {
  const size = getKey(KEY_SCRATCH, KEY_SCRATCH_BYTES);
  const out = new Uint8Array(size);
  if (size <= KEY_SCRATCH_BYTES) memory.copy(out.dataStart, KEY_SCRATCH, size);
  else getKey(out.dataStart, size);
  return out;
}
