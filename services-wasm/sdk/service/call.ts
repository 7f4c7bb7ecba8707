// Calling other services (host-abi.md §6). A service may send only as itself unless it is
// privileged; sender 0 stands for "this service".

import { AccountNumber, MethodNumber } from "../names/types";
import { call } from "../host";
import { takeResult } from "../result";
import { pack } from "../fracpack/codec";
import { Action } from "./action";
import { getService } from "./context";

/** Runs `service::method(rawData)` synchronously and returns its packed result. */
export function callAction(sender: AccountNumber, service: AccountNumber, method: MethodNumber, rawData: Uint8Array): Uint8Array {
  const action = pack<Action>(new Action(sender != 0 ? sender : getService(), service, method, rawData));
  return takeResult(call(action.dataStart, action.length));
}
