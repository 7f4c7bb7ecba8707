// Helpers of the generated `called` export.

import { setRetval } from "../host";
import { pack } from "../fracpack/codec";
import { abort } from "../abort";
import { MethodNumber } from "../names/types";
import { methodName } from "../names/method";
import { accountName } from "../names/account";
import { getService } from "./context";

/** Packs an action's result as its return value. */
export function setReturn<T>(value: T): void {
  const bytes = pack<T>(value);
  setRetval(bytes.dataStart, bytes.length);
}

/** The abort for a method the service has no action for: its name and number, and the service's name. */
export function unknownAction(method: MethodNumber): void {
  abort("unknown action " + methodName(method) + " (method " + method.toString() + ") of service " + accountName(getService()));
}
