// accounts: every account of the chain and the auth service that authenticates it (docs/administration.md §4.4:
// transact asks getAuthOf(sender) which service checks a transaction's sender).
//
// Rules:
// - init() runs once, as one of the first boot transactions (anyone may send it; a second call
//   aborts). It gives every account that has a row in the native code table (the services the
//   genesis transaction deployed) an account row with auth service `auth-sig`. Until the boot
//   sets a key (auth-sig::setKey, sent as that account while auth is off) or another auth
//   service (setAuthServ), nobody can act as such an account once auth is on: system accounts
//   are locked by default, never open to anyone as with auth-any.
// - newAccount(name, authService, requireMatch) -> bool, psibase's: it may be sent by any existing
//   account (after init), as in psibase: during boot the boot transactions send it as a genesis
//   service, later any user may create accounts. The name must be a valid nonempty account name,
//   the auth service an existing account that accepts the new account (canAuthUserSys). It
//   answers whether it created the account. An existing account is never changed: false, or with
//   requireMatch an abort when it uses another auth service than `authService`.
// - setAuthServ changes the sender's own auth service, which must accept the sender (a change
//   of its auth rules: authSequence + 1).
// - incAuthSeq(name) counts a change of name's auth rules (authSequence + 1), as psibase's: an auth
//   service calls it when it changes an account's rules; from anyone else (or for an unknown
//   account) it does nothing, so no one can invalidate approvals of accounts they do not serve.
// - Rows written before authSequence existed (chains booted with an earlier accounts) read as
//   authSequence 0 and take the current form when next written (tables.ts accountRow): an
//   upgraded accounts runs on such a chain without a migration step.
// - GET /graphql answers `getAccount(account) { accountNum authService }`, as psibase's accounts
//   service does: clients see who authenticates an account (and whether a chain is a
//   development chain, docs/system-services.md).

import {
  AccountNumber, HttpReply, HttpRequest, Option, account, accountName, check, checkHttpServerCaller, getSender, isValidAccountNumber,
  serveIndexPage,
} from "../sdk/index";
import { AuthInterface } from "../auth-any/index";
import { Account, AccountsStatus, accountRow, accountTable, statusTable } from "./tables";
import { codeAccounts } from "./code-accounts";

/** The auth service of the accounts init() creates. */
const GENESIS_AUTH_SERVICE = account("auth-sig");

function accountsStatus(): AccountsStatus {
  const status = statusTable.get(0);
  check(status !== null, "accounts is not initialized");
  return status!;
}

/** Aborts unless `authService` is an account that accepts `user`. */
function checkAuthService(authService: AccountNumber, user: AccountNumber): void {
  check(accountRow(authService) !== null, "unknown auth service");
  new AuthInterface(authService).canAuthUserSys(user);
}

/** The query root (type Query). */
@query
export class AccountsQuery {
  /** The account `account`; null when it does not exist. */
  getAccount(account: AccountNumber): Account | null {
    return accountRow(account);
  }
}

@service("accounts")
export class Accounts {
  /** Creates the accounts of the services deployed at genesis; once. */
  @action
  init(): void {
    check(statusTable.get(0) === null, "accounts is already initialized");
    const names = codeAccounts();
    for (let i = 0; i < names.length; i++) accountTable.put(new Account(names[i], GENESIS_AUTH_SERVICE));
    statusTable.put(new AccountsStatus(<u32>names.length));
  }

  /** Creates `name` with `authService`; whether it did (an existing account is left as it is). */
  @action
  newAccount(name: AccountNumber, authService: AccountNumber, requireMatch: bool): bool {
    const status = accountsStatus();
    check(accountRow(getSender()) !== null, "only an existing account can create accounts");
    check(isValidAccountNumber(name), "invalid account name");
    const existing = accountRow(name);
    if (existing !== null) {
      check(!requireMatch || existing.authService == authService, "account already exists");
      return false;
    }
    checkAuthService(authService, name);
    accountTable.put(new Account(name, authService));
    status.totalAccounts++;
    statusTable.put(status);
    return true;
  }

  /** Sets the sender's auth service. */
  @action
  setAuthServ(authService: AccountNumber): void {
    const sender = getSender();
    const row = accountRow(sender);
    check(row !== null, "account " + accountName(sender) + " does not exist");
    checkAuthService(authService, sender);
    row!.authService = authService;
    row!.authSequence++;
    accountTable.put(row!);
  }

  @action
  getAccount(name: AccountNumber): Account | null {
    return accountRow(name);
  }

  /** The auth service of `account`; aborts for an unknown account. */
  @action
  getAuthOf(account: AccountNumber): AccountNumber {
    const row = accountRow(account);
    check(row !== null, "account " + accountName(account) + " does not exist");
    return row!.authService;
  }

  @action
  exists(name: AccountNumber): bool {
    return accountRow(name) !== null;
  }

  /** From name's auth service: its rules for name changed. */
  @action
  incAuthSeq(name: AccountNumber): void {
    const row = accountRow(name);
    if (row === null || row.authService != getSender()) return;
    row.authSequence++;
    accountTable.put(row);
  }

  /** GET /graphql: the schema; queries by GET or POST. */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const page = serveIndexPage(request, "accounts", "Every account of the chain and the service that authenticates it, over GraphQL.", ["/graphql"]);
    if (page !== null) return page;
    return new AccountsQuery().serveGraphQL(request);
  }
}
