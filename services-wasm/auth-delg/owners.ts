// auth-delg's table: the owner of each account that delegates its auth to another account.

import { AccountNumber, Table, accountName, check } from "../sdk/index";

@fracpack
export class AuthDelegateRecord {
  constructor(public account: AccountNumber = 0, public owner: AccountNumber = 0) {}
}

export const ownerTable = new Table<AuthDelegateRecord, AccountNumber>(1, (r: AuthDelegateRecord): AccountNumber => r.account);

/** The owner of `account`; aborts when it has none. */
export function ownerOf(account: AccountNumber): AccountNumber {
  const row = ownerTable.get(account);
  check(row !== null, accountName(account) + " does not have an owning account");
  return row!.owner;
}
