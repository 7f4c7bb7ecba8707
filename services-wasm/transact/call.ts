// Calling an action exactly as given: transact is privileged, so the sender is whatever the
// action names (the SDK's callAction would turn sender 0 into transact).

import { Action, host, pack } from "../sdk/index";
import { takeResult } from "../sdk/result";

/** Runs `action` with its own sender; returns its packed return value. */
export function callAs(action: Action): Uint8Array {
  const packed = pack<Action>(action);
  return takeResult(host.call(packed.dataStart, packed.length));
}
