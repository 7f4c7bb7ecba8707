// Helpers of the generated `called` export.

import { setRetval } from "../host";
import { pack } from "../fracpack/codec";
import { abort } from "../abort";
import { MethodNumber } from "../names/types";

/** Packs an action's result as its return value. */
export function setReturn<T>(value: T): void {
  const bytes = pack<T>(value);
  setRetval(bytes.dataStart, bytes.length);
}

export function unknownAction(method: MethodNumber): void {
  abort("unknown action " + method.toString());
}
