// Test auth service: reports every checkAuthSys call as an event and refuses the request kinds
// (flags & 0xFF) it is told to refuse; any account may use it.

import { AccountNumber, Table, abort } from "../../../../../services-wasm/sdk/index";
import { Claim, ServiceMethod, requestMask } from "../../../../../services-wasm/sdk/auth/index";

@fracpack
class Refusals {
  constructor(public id: u8 = 0, public requests: Array<u32> = []) {}
}

const refusals = new Table<Refusals, u8>(1, (row: Refusals): u8 => row.id);

@service("auth-test")
class AuthTest {
  @action
  refuse(requests: Array<u32>): void {
    refusals.put(new Refusals(0, requests));
  }

  @action
  checkAuthSys(
    flags: u32,
    requester: AccountNumber,
    sender: AccountNumber,
    action: ServiceMethod,
    allowedActions: Array<ServiceMethod>,
    claims: Array<Claim>,
  ): void {
    this.checked(flags, requester, sender, action, allowedActions, claims);
    const row = refusals.get(0);
    const request = flags & requestMask;
    if (row !== null && row.requests.includes(request)) abort("auth-test refuses request " + request.toString());
  }

  @action
  canAuthUserSys(user: AccountNumber): void {}

  @event("history")
  checked(
    flags: u32,
    requester: AccountNumber,
    sender: AccountNumber,
    action: ServiceMethod,
    allowedActions: Array<ServiceMethod>,
    claims: Array<Claim>,
  ): void {}
}
