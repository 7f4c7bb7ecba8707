// The accounts service's state: one row per account, and a status row whose presence marks
// that init() has run.

import { AccountNumber, Table } from "../sdk/index";

/**
 * psibase's Account row. authSequence counts the changes of the account's auth rules (incAuthSeq),
 * so that a service remembering an approval can tell that the rules changed since.
 */
@fracpack
export class Account {
  constructor(public accountNum: AccountNumber = 0, public authService: AccountNumber = 0, public authSequence: u64 = 0) {}
}

@fracpack
export class AccountsStatus {
  constructor(public totalAccounts: u32 = 0) {}
}

export const accountTable = new Table<Account, AccountNumber>(1, (a: Account): AccountNumber => a.accountNum);

/** A single row, under key 0. */
export const statusTable = new Table<AccountsStatus, u8>(2, (s: AccountsStatus): u8 => 0);
