// auth-sig: authenticates an account by one public key (docs/chain.md §3). A transaction acts for
// the account when it carries a `verify-sig` claim whose rawData is that key; verify-sig has
// then checked the claim's proof (a signature over the transaction id) before transact asks.
//
// Rules:
// - setKey sets the sender's own key (the DER SubjectPublicKeyInfo of a P-256 or secp256k1
//   key); anyone may call it, which matters only to accounts whose auth service is auth-sig.
// - newAccount(name, key) creates `name` with auth service auth-sig and key `key`. It may be
//   sent by any existing account, the same rule as accounts::newAccount (whose sender here is
//   auth-sig itself, so the rule is checked here for the real creator). An existing name aborts
//   (psibase's would set its key when it uses auth-sig: here no one replaces another's key).
// - canAuthUserSys requires the user to have a key: an account moves to auth-sig only after
//   setting one, so it cannot lock itself out by mistake.
// - checkAuthSys: runAs by the sender itself or within allowed actions passes; expanding them
//   or any other runAs aborts; a top-level action needs the claim (the first claim when
//   firstAuthFlag is set, psibase's rule against billing an innocent first sender). Without the
//   claim it aborts saying so, except in a read-only check (transact::checkFirstAuth), which asks
//   rather than enforces: there it answers false, as newer psibase's auth-sig always does.
// - isAuthSys / isRejectSys: only the account itself authorizes or rejects for it.

import { AccountNumber, Option, abort, account, accountName, check, getReceiver, getSender } from "../sdk/index";
import {
  Claim, ServiceMethod, inAuthSet, firstAuthFlag, readOnlyFlag, requestMask, topActionReq, runAsRequesterReq,
  runAsMatchedReq, runAsMatchedExpandedReq, runAsOtherReq,
} from "../sdk/auth/index";
import { AccountsActor } from "../accounts/index";
import { AuthRecord, authTable, keyOf } from "./keys";
import { isSupportedPublicKey } from "./public-key";

const VERIFY_SIG = account("verify-sig");

function checkKey(key: Uint8Array): void {
  check(isSupportedPublicKey(key), "invalid public key: expected the DER SubjectPublicKeyInfo of a P-256 or secp256k1 key");
}

/** The index of the first claim that verify-sig checked for `key`, or -1. */
function claimIndexOf(claims: Array<Claim>, key: Uint8Array): i32 {
  const expected = new Claim(VERIFY_SIG, key);
  for (let i = 0; i < claims.length; i++) if (claims[i].equals(expected)) return i;
  return -1;
}

@service("auth-sig")
export class AuthSig {
  /** Sets the sender's public key. */
  @action
  setKey(key: Uint8Array): void {
    checkKey(key);
    authTable.put(new AuthRecord(getSender(), key));
  }

  /** Creates account `name` authenticated by `key`. */
  @action
  newAccount(name: AccountNumber, key: Uint8Array): void {
    checkKey(key);
    const accounts = new AccountsActor();
    check(accounts.exists(getSender()), "only an existing account can create accounts");
    // The key first: accounts asks canAuthUserSys(name), which needs it.
    authTable.put(new AuthRecord(name, key));
    // An existing account keeps its key: the abort undoes the put above.
    check(accounts.newAccount(name, getReceiver(), true), "account already exists");
  }

  @action
  checkAuthSys(
    flags: u32, requester: AccountNumber, sender: AccountNumber, action: ServiceMethod,
    allowedActions: Array<ServiceMethod>, claims: Array<Claim>,
  ): bool {
    const request = flags & requestMask;
    if (request == runAsRequesterReq || request == runAsMatchedReq) return true;
    if (request == runAsMatchedExpandedReq) abort("runAs: caller attempted to expand powers");
    if (request == runAsOtherReq) abort("runAs: caller is not authorized");
    check(request == topActionReq, "unsupported auth type " + request.toString());

    const index = claimIndexOf(claims, keyOf(sender));
    if (index < 0) {
      if ((flags & readOnlyFlag) != 0) return false;
      abort("transaction does not include a claim for the key needed to authenticate sender " + accountName(sender));
    }
    check(index == 0 || (flags & firstAuthFlag) == 0, "first sender is not verified by first signature");
    return true;
  }

  /** Accounts with a key may use auth-sig. */
  @action
  canAuthUserSys(user: AccountNumber): void {
    keyOf(user);
  }

  @action
  isAuthSys(sender: AccountNumber, authorizers: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet) && authorizers.includes(sender);
  }

  @action
  isRejectSys(sender: AccountNumber, rejecters: Array<AccountNumber>, method: Option<ServiceMethod>, authSet: Option<Array<AccountNumber>>): bool {
    return !inAuthSet(sender, authSet) && rejecters.includes(sender);
  }
}
