// auth-any: the auth interface of docs/administration.md §4.4, approving everything. For development chains
// only: whoever submits a transaction may act for an account that uses it.
//
// Its actions are exactly the auth interface, so its Actor, exported as `AuthInterface`, calls
// that interface on any auth service: `new AuthInterface(authService).canAuthUserSys(user)`.

import { AccountNumber, Option } from "../sdk/index";
import { Claim, ServiceMethod, inAuthSet } from "../sdk/auth/index";

@service("auth-any")
export class AuthAny {
  /** Approves every request: top-level actions and every kind of runAs. */
  @action
  checkAuthSys(
    flags: u32, requester: AccountNumber, sender: AccountNumber, action: ServiceMethod,
    allowedActions: Array<ServiceMethod>, claims: Array<Claim>,
  ): void {}

  /** Any account may use auth-any. */
  @action
  canAuthUserSys(user: AccountNumber): void {}

  /** Anyone authorizes for the sender, except in a cycle (the sender already in `authSet`). */
  @action
  isAuthSys(sender: AccountNumber, authorizers: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet);
  }

  /** Anyone rejects for the sender, except in a cycle (the sender already in `authSet`). */
  @action
  isRejectSys(sender: AccountNumber, rejecters: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet);
  }
}

export { AuthAnyActor as AuthInterface };
