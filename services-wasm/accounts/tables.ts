// The accounts service's state: one row per account, and a status row whose presence marks
// that init() has run.

import { AccountNumber, DbId, Table, unpack } from "../sdk/index";
import { get } from "../sdk/tables/db";

/**
 * psibase's Account row. authSequence counts the changes of the account's auth rules (incAuthSeq),
 * so that a service remembering an approval can tell that the rules changed since.
 */
@fracpack
export class Account {
  constructor(public accountNum: AccountNumber = 0, public authService: AccountNumber = 0, public authSequence: u64 = 0) {}
}

/** The row as accounts wrote it before authSequence: chains booted then still hold rows of this form. */
@fracpack
class AccountBeforeAuthSequence {
  constructor(public accountNum: AccountNumber = 0, public authService: AccountNumber = 0) {}
}

/** The fixed part of a packed AccountBeforeAuthSequence (its u16 header says so): two u64. */
const FIXED_SIZE_BEFORE_AUTH_SEQUENCE: u16 = 16;

@fracpack
export class AccountsStatus {
  constructor(public totalAccounts: u32 = 0) {}
}

export const accountTable = new Table<Account, AccountNumber>(1, (a: Account): AccountNumber => a.accountNum);

/**
 * The account row of `name`, or null. A row from before authSequence reads as authSequence 0,
 * the count psibase starts from: its auth rules have not changed since it gained the field. It
 * takes the current form when it is next written (docs/system-services.md, accounts).
 */
export function accountRow(name: AccountNumber): Account | null {
  const packed = get(DbId.service, accountTable.primary.keyBytes(name));
  if (packed === null) return null;
  if (packed.length >= 2 && load<u16>(packed.dataStart) == FIXED_SIZE_BEFORE_AUTH_SEQUENCE) {
    const old = unpack<AccountBeforeAuthSequence>(packed);
    return new Account(old.accountNum, old.authService, 0);
  }
  return unpack<Account>(packed);
}

/** A single row, under key 0. */
export const statusTable = new Table<AccountsStatus, u8>(2, (s: AccountsStatus): u8 => 0);
