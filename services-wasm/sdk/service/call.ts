// Calling other services (docs/host-abi.md §6). A service may send only as itself unless it is
// privileged; sender 0 stands for "this service".

import { AccountNumber, MethodNumber } from "../names/types";
import { call } from "../host";
import { takeResult } from "../result";
import { pack } from "../fracpack/codec";
import { Action } from "./action";
import { getService } from "./context";

/**
 * Runs `action` exactly as given, with its own sender (another sender than this service needs
 * a privileged service); returns its packed result.
 */
export function callActionAs(action: Action): Uint8Array {
  const packed = pack<Action>(action);
  return takeResult(call(packed.dataStart, packed.length));
}

/** Runs `service::method(rawData)` synchronously and returns its packed result. */
export function callAction(sender: AccountNumber, service: AccountNumber, method: MethodNumber, rawData: Uint8Array): Uint8Array {
  return callActionAs(new Action(sender != 0 ? sender : getService(), service, method, rawData));
}
