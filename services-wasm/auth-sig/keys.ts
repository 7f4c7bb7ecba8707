// auth-sig's table: the public key of each account that uses it.

import { AccountNumber, Table, accountName, check } from "../sdk/index";

@fracpack
export class AuthRecord {
  constructor(public account: AccountNumber = 0, public pubkey: Uint8Array = new Uint8Array(0)) {}
}

export const authTable = new Table<AuthRecord, AccountNumber>(1, (r: AuthRecord): AccountNumber => r.account);

/** The key of `account`; aborts when it has none. */
export function keyOf(account: AccountNumber): Uint8Array {
  const row = authTable.get(account);
  check(row !== null, accountName(account) + " does not have a public key");
  return row!.pubkey;
}
