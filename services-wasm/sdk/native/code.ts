// The native code tables (docs/host-abi.md §4, §8): `code` maps an account to its flags and code
// hash, `codeByHash` holds each distinct code once with a reference count.

import { AccountNumber } from "../names/types";
import { Checksum256 } from "../fracpack/checksum";
import { unpack } from "../fracpack/codec";
import { DbId, get } from "../tables/db";
import { codeKey } from "./keys";

/** Account code flags (docs/host-abi.md §6). */
export const isVerify: u64 = 2;

@fracpack
export class CodeRow {
  constructor(
    public codeNum: AccountNumber = 0,
    public flags: u64 = 0,
    /** All zero: the account has no code. */
    public codeHash: Checksum256 = new Checksum256(),
    public vmType: u8 = 0,
    public vmVersion: u8 = 0,
  ) {}
}

@fracpack
export class CodeByHashRow {
  constructor(
    public codeHash: Checksum256 = new Checksum256(),
    public vmType: u8 = 0,
    public vmVersion: u8 = 0,
    public numRefs: u32 = 0,
    public code: Uint8Array = new Uint8Array(0),
  ) {}
}

/** The code row of `account`, or null. */
export function getCodeRow(account: AccountNumber): CodeRow | null {
  const value = get(DbId.native, codeKey(account));
  return value === null ? null : unpack<CodeRow>(value);
}

const NO_CODE = new Checksum256();

/** Whether the row points at code (an all-zero hash means none). */
export function hasCode(row: CodeRow): bool {
  return !row.codeHash.equals(NO_CODE);
}

/** Whether `account` has code to run. */
export function accountHasCode(account: AccountNumber): bool {
  const row = getCodeRow(account);
  return row !== null && hasCode(row);
}
