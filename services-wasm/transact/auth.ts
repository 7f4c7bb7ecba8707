// Authorization through the auth interface (docs/administration.md §4.4, docs/chain.md §5): asking an account's auth
// service to approve a top-level action or a runAs.

import { AccountNumber, Action } from "../sdk/index";
import { Claim, ServiceMethod } from "../sdk/auth/index";
import { AccountsActor } from "../accounts/index";
import { AuthInterface } from "../auth-any/index";

/** The auth service `account` chose (accounts::getAuthOf). */
export function authServiceOf(account: AccountNumber): AccountNumber {
  return new AccountsActor().getAuthOf(account);
}

/** Asks `action.sender`'s auth service to approve; it aborts to refuse. */
export function requireAuth(
  authService: AccountNumber,
  flags: u32,
  requester: AccountNumber,
  action: Action,
  allowedActions: Array<ServiceMethod>,
  claims: Array<Claim>,
): void {
  new AuthInterface(authService).checkAuthSys(
    flags, requester, action.sender, new ServiceMethod(action.service, action.method), allowedActions, claims,
  );
}

/** A top-level action, authorized with the transaction's claims (requester 0, nothing allowed). */
export function requireTopActionAuth(action: Action, flags: u32, claims: Array<Claim>): void {
  requireAuth(authServiceOf(action.sender), flags, 0, action, [], claims);
}
