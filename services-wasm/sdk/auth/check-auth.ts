// Asking an auth service to approve a request (docs/system-services.md "Auth interface"): transact
// asks for top-level actions and runAs, auth-delg forwards to the owner's auth service. An auth
// service refuses by aborting or by answering false; one that answers nothing approves.

import { AccountNumber } from "../names/types";
import { accountName } from "../names/account";
import { methodNumber } from "../names/method";
import { abort } from "../abort";
import { pack } from "../fracpack/codec";
import { callAction } from "../service/call";
import { Claim, ServiceMethod } from "./types";

const CHECK_AUTH_SYS = methodNumber("checkAuthSys");

/** checkAuthSys's arguments, packed by hand: its answer is read raw (nothing, or a bool). */
@fracpack
class CheckAuthSysArgs {
  constructor(
    public flags: u32 = 0,
    public requester: AccountNumber = 0,
    public sender: AccountNumber = 0,
    public action: ServiceMethod = new ServiceMethod(),
    public allowedActions: Array<ServiceMethod> = [],
    public claims: Array<Claim> = [],
  ) {}
}

/**
 * `authService`'s checkAuthSys answer: true when it returns nothing or true, false when it
 * returns false. An abort in it goes on through the caller.
 */
export function checkAuthSys(
  authService: AccountNumber,
  flags: u32,
  requester: AccountNumber,
  sender: AccountNumber,
  action: ServiceMethod,
  allowedActions: Array<ServiceMethod>,
  claims: Array<Claim>,
): bool {
  const args = new CheckAuthSysArgs(flags, requester, sender, action, allowedActions, claims);
  const answer = callAction(0, authService, CHECK_AUTH_SYS, pack<CheckAuthSysArgs>(args));
  if (answer.length == 0) return true;
  if (answer.length != 1 || answer[0] > 1) abort("auth service " + accountName(authService) + " answered checkAuthSys with neither nothing nor a bool");
  return answer[0] == 1;
}
