// auth-delg: an account that uses it is authenticated as its owner account, psibase's
// auth-delegate with psibase's action layouts (docs/system-services.md).
//
// Rules:
// - setOwner(owner) sets the sender's owner; an account may not own itself, nor be owned by an
//   account it owns ("circular ownership"). The rules for the sender change, so it tells accounts
//   (incAuthSeq), which counts the change when the sender uses auth-delg.
// - newAccount(name, owner, requireMatch) creates `name` with auth service auth-delg, owned by
//   `owner` (an existing account), and answers whether it created it. Any existing account may
//   send it (accounts::newAccount's rule, checked here for the real creator). An existing name is
//   left as it is (false), unless requireMatch: then it aborts when name uses another auth service
//   or has another owner.
// - getOwner(account) answers the owner, aborting for an account without one.
// - checkAuthSys asks the owner's auth service about the same request for the owner. A runAs
//   whose requester is the owner is the owner acting: it is asked as runAsRequesterReq.
// - canAuthUserSys requires an owner: an account moves to auth-delg only after setOwner.
// - isAuthSys / isRejectSys: the owner authorizes or rejects for the account; getDlgsSys
//   answers [owner].

import { AccountNumber, Option, abort, accountName, check, getReceiver, getSender } from "../sdk/index";
import { Claim, ServiceMethod, checkAuthSys, inAuthSet, requestMask, runAsRequesterReq } from "../sdk/auth/index";
import { AccountsActor } from "../accounts/index";
import { AuthDelegateRecord, ownerOf, ownerTable } from "./owners";

@service("auth-delg")
export class AuthDelegate {
  @action
  setOwner(owner: AccountNumber): void {
    const sender = getSender();
    const ownersOwner = ownerTable.get(owner);
    if (sender == owner || (ownersOwner !== null && ownersOwner.owner == sender)) abort("circular ownership");
    new AccountsActor().incAuthSeq(sender);
    ownerTable.put(new AuthDelegateRecord(sender, owner));
  }

  @action
  newAccount(name: AccountNumber, owner: AccountNumber, requireMatch: bool): bool {
    const accounts = new AccountsActor();
    check(accounts.exists(getSender()), "only an existing account can create accounts");
    check(accounts.exists(owner), "owner account does not exist");
    const record = ownerTable.get(name);
    if (requireMatch && record !== null && record.owner != owner) {
      abort(accountName(name) + " is owned by " + accountName(record.owner));
    }
    if (accounts.exists(name)) {
      check(!requireMatch || accounts.getAuthOf(name) == getReceiver(), "account already exists");
      return false;
    }
    // The owner first: accounts asks canAuthUserSys(name), which needs it.
    ownerTable.put(new AuthDelegateRecord(name, owner));
    return accounts.newAccount(name, getReceiver(), true);
  }

  /** The owner of the account named `owner` (psibase's schema names the argument so). */
  @action
  getOwner(owner: AccountNumber): AccountNumber {
    return ownerOf(owner);
  }

  @action
  checkAuthSys(
    flags: u32, requester: AccountNumber, sender: AccountNumber, action: ServiceMethod,
    allowedActions: Array<ServiceMethod>, claims: Array<Claim>,
  ): bool {
    const owner = ownerOf(sender);
    const ownerFlags = requester == owner ? (flags & ~requestMask) | runAsRequesterReq : flags;
    const ownerAuth = new AccountsActor().getAuthOf(owner);
    return checkAuthSys(ownerAuth, ownerFlags, requester, owner, action, allowedActions, claims);
  }

  /** Accounts with an owner may use auth-delg. */
  @action
  canAuthUserSys(user: AccountNumber): void {
    ownerOf(user);
  }

  @action
  getDlgsSys(sender: AccountNumber): Array<AccountNumber> {
    return [ownerOf(sender)];
  }

  @action
  isAuthSys(sender: AccountNumber, authorizers: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet) && authorizers.includes(ownerOf(sender));
  }

  @action
  isRejectSys(sender: AccountNumber, rejecters: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet) && rejecters.includes(ownerOf(sender));
  }
}
