// Authorization through the auth interface (docs/administration.md §4.4, docs/chain.md §5): asking an account's auth
// service to approve a top-level action or a runAs. An auth service refuses by aborting, or, as
// newer psibase auth services do, by answering false; transact accepts either answer.

import { AccountNumber, Action, abort, accountName } from "../sdk/index";
import { methodName } from "../sdk/names/method";
import { Claim, ServiceMethod, checkAuthSys } from "../sdk/auth/index";
import { AccountsActor } from "../accounts/index";

/** The auth service `account` chose (accounts::getAuthOf). */
export function authServiceOf(account: AccountNumber): AccountNumber {
  return new AccountsActor().getAuthOf(account);
}

/**
 * Asks `authService` whether it approves `action` (for `action.sender`): true when it returns
 * nothing or true, false when it returns false. An abort in it goes on through the caller.
 */
export function isAuthorized(
  authService: AccountNumber,
  flags: u32,
  requester: AccountNumber,
  action: Action,
  allowedActions: Array<ServiceMethod>,
  claims: Array<Claim>,
): bool {
  return checkAuthSys(authService, flags, requester, action.sender, new ServiceMethod(action.service, action.method), allowedActions, claims);
}

/** As isAuthorized, aborting with psibase's message when the answer is false. */
export function requireAuth(
  authService: AccountNumber,
  flags: u32,
  requester: AccountNumber,
  action: Action,
  allowedActions: Array<ServiceMethod>,
  claims: Array<Claim>,
): void {
  if (!isAuthorized(authService, flags, requester, action, allowedActions, claims)) {
    abort("Authorization for " + accountName(action.sender) + " -> " + accountName(action.service) + "::" + methodName(action.method) + " failed");
  }
}

/** A top-level action, authorized with the transaction's claims (requester 0, nothing allowed). */
export function requireTopActionAuth(action: Action, flags: u32, claims: Array<Claim>): void {
  requireAuth(authServiceOf(action.sender), flags, 0, action, [], claims);
}
