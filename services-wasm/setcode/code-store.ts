// Writes the native code tables (docs/host-abi.md §4): each distinct code is stored once in
// `codeByHash`, with the number of code rows that point at it.

import { AccountNumber, Checksum256, DbId, check, kv, pack, unpack } from "../sdk/index";
import { CodeByHashRow, CodeRow, codeByHashKey, codeKey, getCodeRow, hasCode } from "../sdk/native/index";

/** Writes `row`, or removes it when it holds neither code nor flags. */
export function putCodeRow(row: CodeRow): void {
  const key = codeKey(row.codeNum);
  if (hasCode(row) || row.flags != 0) kv.put(DbId.native, key, pack<CodeRow>(row));
  else kv.remove(DbId.native, key);
}

/** One more code row uses `code`: stores it, or counts the new reference. */
export function addCodeReference(codeHash: Checksum256, vmType: u8, vmVersion: u8, code: Uint8Array): void {
  const key = codeByHashKey(codeHash, vmType, vmVersion);
  const stored = kv.get(DbId.native, key);
  const row = stored !== null ? unpack<CodeByHashRow>(stored) : new CodeByHashRow(codeHash, vmType, vmVersion, 0, code);
  check(row.numRefs != u32.MAX_VALUE, "code reference count overflow");
  row.numRefs++;
  kv.put(DbId.native, key, pack<CodeByHashRow>(row));
}

/** One code row less uses this code: counts it down, removing the code with its last reference. */
export function releaseCodeReference(codeHash: Checksum256, vmType: u8, vmVersion: u8): void {
  const key = codeByHashKey(codeHash, vmType, vmVersion);
  const stored = kv.get(DbId.native, key);
  check(stored !== null, "missing code for a code row");
  const row = unpack<CodeByHashRow>(stored!);
  if (row.numRefs <= 1) {
    kv.remove(DbId.native, key);
    return;
  }
  row.numRefs--;
  kv.put(DbId.native, key, pack<CodeByHashRow>(row));
}

/** The code row of `account`, or a new one without code or flags. */
export function loadCodeRow(account: AccountNumber): CodeRow {
  const row = getCodeRow(account);
  return row !== null ? row : new CodeRow(account);
}
