// The host import table of docs/host-abi.md §3 as data (the database-id generation; the handle
// generation's table is handle-imports.ts): the node checks deployed modules against it and binds
// its implementations by these names; the service SDK declares its externals from it. Every import
// lives in module `env`. A name may accept more than one signature (`call` has an optional `flags`
// argument); a module imports each name once, with any one of them.

export const HOST_IMPORT_MODULE = 'env';

/** Value types that occur in host import signatures. */
export type HostValueType = 'i32' | 'i64';

export interface HostImportSignature {
  readonly params: readonly HostValueType[];
  readonly results: readonly HostValueType[];
}

export function signature(params: readonly HostValueType[], results: readonly HostValueType[] = []): HostImportSignature {
  return { params, results };
}

export const i32 = 'i32';
export const i64 = 'i64';

export const HOST_IMPORTS = {
  getResult: [signature([i32, i32, i32], [i32])],
  getKey: [signature([i32, i32], [i32])],
  writeConsole: [signature([i32, i32])],
  abortMessage: [signature([i32, i32])],
  getCurrentAction: [signature([], [i32])],
  // (actionPtr, actionLen [, flags]) -> len(V); flags 1 = callee in RPC mode, 2 = CB mode (§6)
  call: [signature([i32, i32], [i32]), signature([i32, i32, i64], [i32])],
  setRetval: [signature([i32, i32])],
  kvPut: [signature([i32, i32, i32, i32, i32])],
  kvRemove: [signature([i32, i32, i32])],
  kvGet: [signature([i32, i32, i32], [i32])],
  kvGreaterEqual: [signature([i32, i32, i32, i32], [i32])],
  kvLessThan: [signature([i32, i32, i32, i32], [i32])],
  kvMax: [signature([i32, i32, i32], [i32])],
  // tsibase extension, RPC mode only (docs/host-abi.md §3):
  //   kvRange(db, keyPtr, keyLen, match, upperPtr, upperLen, maxRows) -> len(V)
  // V := the rows from the kvGreaterEqual of (key, match) on, in key order, below `upper`
  // (upperLen 0: no bound), at most maxRows: each a u32 key length, the key, a u32 value length
  // and the value (little-endian).
  kvRange: [signature([i32, i32, i32, i32, i32, i32, i32], [i32])],
  putSequential: [signature([i32, i32, i32], [i64])],
  getSequential: [signature([i32, i64], [i32])],
  checkoutSubjective: [signature([])],
  commitSubjective: [signature([], [i32])],
  abortSubjective: [signature([])],
  clockTimeGet: [signature([i32, i32], [i32])],
  getRandom: [signature([i32, i32])],
  setMaxTransactionTime: [signature([i64])],
  socketSend: [signature([i32, i32, i32], [i32])],
  socketAutoClose: [signature([i32, i32], [i32])],
  // tsibase extension, verify mode only (docs/design.md decision 5):
  //   ecdsaVerify(keyPtr, keyLen, digestPtr, digestLen, signaturePtr, signatureLen) -> i32
  // key = DER SubjectPublicKeyInfo (P-256 or secp256k1), digest = the 32-byte SHA-256 of the
  // signed data (a verify service only receives the transaction id), signature = 64-byte r||s.
  // Returns 1 when the signature is valid, 0 when it is not.
  ecdsaVerify: [signature([i32, i32, i32, i32, i32, i32], [i32])],
} as const satisfies Record<string, readonly HostImportSignature[]>;

export type HostImportName = keyof typeof HOST_IMPORTS;

export function isHostImportName(name: string): name is HostImportName {
  return Object.hasOwn(HOST_IMPORTS, name);
}
