// The raw host imports of docs/host-abi.md §3, exactly as host-api/abi/imports.ts lists them (module
// `env`). Pointers and lengths are i32 (read as unsigned by the host), accounts and ids i64.
// Service code uses the typed wrappers in the rest of the SDK; these are for the rare case that
// needs the bare ABI.

/** Copies min(cap, len(V) - offset) bytes of the value buffer V to dest; returns len(V). */
@external("env", "getResult")
export declare function getResult(dest: usize, cap: u32, offset: u32): u32;

/** Copies min(cap, len(K)) bytes of the key buffer K to dest; returns len(K). */
@external("env", "getKey")
export declare function getKey(dest: usize, cap: u32): u32;

/** Appends UTF-8 text to the current action's console trace. */
@external("env", "writeConsole")
export declare function writeConsole(ptr: usize, len: u32): void;

/** Aborts the whole execution context with a UTF-8 message; never returns. */
@external("env", "abortMessage")
export declare function abortMessage(ptr: usize, len: u32): void;

/** V := the packed Action this instance is executing; returns len(V). */
@external("env", "getCurrentAction")
export declare function getCurrentAction(): u32;

/** Runs a packed Action synchronously; V := the callee's return value; returns len(V). */
@external("env", "call")
export declare function call(ptr: usize, len: u32): u32;

/** Sets (replaces) the current action's return bytes. */
@external("env", "setRetval")
export declare function setRetval(ptr: usize, len: u32): void;

@external("env", "kvPut")
export declare function kvPut(db: u32, keyPtr: usize, keyLen: u32, valuePtr: usize, valueLen: u32): void;

@external("env", "kvRemove")
export declare function kvRemove(db: u32, keyPtr: usize, keyLen: u32): void;

/** Exact lookup: V := the value; returns its size or NONE. */
@external("env", "kvGet")
export declare function kvGet(db: u32, keyPtr: usize, keyLen: u32): u32;

/** Smallest key >= the given key whose first `matchLen` bytes equal it; V/K set; size or NONE. */
@external("env", "kvGreaterEqual")
export declare function kvGreaterEqual(db: u32, keyPtr: usize, keyLen: u32, matchLen: u32): u32;

/** Largest key < the given key whose first `matchLen` bytes equal it; V/K set; size or NONE. */
@external("env", "kvLessThan")
export declare function kvLessThan(db: u32, keyPtr: usize, keyLen: u32, matchLen: u32): u32;

/** Largest key starting with the given bytes; V/K set; size or NONE. */
@external("env", "kvMax")
export declare function kvMax(db: u32, keyPtr: usize, keyLen: u32): u32;

/**
 * RPC mode only (tsibase): V := up to `maxRows` rows from kvGreaterEqual(key, matchLen) on, below
 * `upper` (upperLen 0: no bound), each a u32 key length, key, u32 value length, value; returns len(V).
 * The reply ends early after the row that brings it to 1 MiB: fewer rows than asked is the end only when none came.
 */
@external("env", "kvRange")
export declare function kvRange(db: u32, keyPtr: usize, keyLen: u32, matchLen: u32, upperPtr: usize, upperLen: u32, maxRows: u32): u32;

/** Appends an event record to event db 4, 5 or 6; returns its id. */
@external("env", "putSequential")
export declare function putSequential(db: u32, valuePtr: usize, valueLen: u32): u64;

/** V := the event with this id; returns its size or NONE. */
@external("env", "getSequential")
export declare function getSequential(db: u32, id: u64): u32;

@external("env", "checkoutSubjective")
export declare function checkoutSubjective(): void;

/** 1 when committed; 0 on a conflict of the outermost view (a fresh view is open: retry). */
@external("env", "commitSubjective")
export declare function commitSubjective(): u32;

@external("env", "abortSubjective")
export declare function abortSubjective(): void;

/** Subjective modes only: writes a u64 of nanoseconds at outPtr; returns 0, or 28 for a bad id. */
@external("env", "clockTimeGet")
export declare function clockTimeGet(id: u32, outPtr: usize): u32;

/** Subjective modes only: fills [ptr, ptr + len) with random bytes. */
@external("env", "getRandom")
export declare function getRandom(ptr: usize, len: u32): void;

/** Privileged only: sets the CPU limit of the context. */
@external("env", "setMaxTransactionTime")
export declare function setMaxTransactionTime(nanoseconds: u64): void;

/** Subjective modes, privileged: returns 0 or an errno. */
@external("env", "socketSend")
export declare function socketSend(fd: i32, ptr: usize, len: u32): i32;

/** Subjective modes, privileged: the context takes (on = 1) or releases socket ownership. */
@external("env", "socketAutoClose")
export declare function socketAutoClose(fd: i32, on: i32): i32;

/**
 * Verify mode only: 1 when `signature` (64-byte r||s) is valid for `key` (DER
 * SubjectPublicKeyInfo, P-256 or secp256k1) over `digest` (the 32-byte SHA-256 of the signed
 * data, e.g. a transaction id), else 0.
 */
@external("env", "ecdsaVerify")
export declare function ecdsaVerify(keyPtr: usize, keyLen: u32, digestPtr: usize, digestLen: u32, signaturePtr: usize, signatureLen: u32): i32;

/** What size-returning imports return when there is no value. */
export const NONE: u32 = 0xffffffff;
