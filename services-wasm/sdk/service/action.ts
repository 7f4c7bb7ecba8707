import { AccountNumber, MethodNumber } from "../names/types";
import { getCurrentAction } from "../host";
import { takeResult } from "../result";
import { unpack } from "../fracpack/codec";

/** A packed call of one service action (docs/formats.md §6). */
@fracpack
export class Action {
  constructor(
    public sender: AccountNumber = 0,
    public service: AccountNumber = 0,
    public method: MethodNumber = 0,
    /** The packed argument Object. */
    public rawData: Uint8Array = new Uint8Array(0),
  ) {}
}

/** The action this instance is executing (innermost frame). */
export function currentAction(): Action {
  return unpack<Action>(takeResult(getCurrentAction()));
}
