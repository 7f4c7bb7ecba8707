import type { ExecutionMeter } from '../execution-meter.js';

// The fuel schedule of host calls (docs/host-abi.md §10.1), in the unit of the metered code: one
// fuel per wasm instruction. A charge depends only on the call's arguments and the data it
// reads, never on timing or caches, so every node charges the same and runs out at the same call.

/** Every host call: crossing from wasm into the host and back, finding the context and frame. */
export const HOST_CALL_FUEL = 100;

/**
 * Bytes copied in or out of linear memory, or read from the store into the result buffer: one
 * fuel per 8-byte word (rounded up per call). Dearer than memory.copy (one per 64 bytes), as the
 * host usually does more with the bytes than move them (store, decode, log); cheaper than a
 * guest's own load/store loop.
 */
export const BYTES_PER_FUEL = 8;

/** Each database row looked up, written or removed: a B-tree walk, about a microsecond. */
export const ROW_FUEL = 1000;

/** Each ECDSA signature verified: about a hundred microseconds. */
export const SIGNATURE_CHECK_FUEL = 100_000;

/**
 * Charges one host call that moves `bytes` bytes, visits `rows` rows and checks `signatures`
 * signatures; throws WASM_FUEL_EXHAUSTED (as metered code would) when the budget is gone.
 */
export function chargeHostCall(meter: ExecutionMeter, bytes: number, rows = 0, signatures = 0): void {
  meter.chargeHostFuel(HOST_CALL_FUEL + Math.ceil(bytes / BYTES_PER_FUEL) + rows * ROW_FUEL + signatures * SIGNATURE_CHECK_FUEL);
}
