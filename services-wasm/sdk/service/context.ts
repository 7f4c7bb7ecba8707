// Who is running: the account this instance was started for, and the receiver and sender of the
// action being dispatched. Actions nest (a service may be re-entered through `call` in the same
// instance), so the dispatcher keeps a stack of them.

import { AccountNumber } from "../names/types";
import { Action, currentAction } from "./action";
import { check } from "../abort";

let thisService: AccountNumber = 0;
const receivers = new Array<AccountNumber>();
const senders = new Array<AccountNumber>();

/** Called by the generated `start` export. */
export function startService(service: AccountNumber): void {
  thisService = service;
}

/** The account this service runs as. */
export function getService(): AccountNumber {
  return thisService;
}

/** The receiver of the action being executed (this service). */
export function getReceiver(): AccountNumber {
  check(receivers.length > 0, "getReceiver: no action is executing");
  return receivers[receivers.length - 1];
}

/** The account that sent the action being executed. */
export function getSender(): AccountNumber {
  check(senders.length > 0, "getSender: no action is executing");
  return senders[senders.length - 1];
}

/** Called by the generated `called` export: enters an action and returns it. */
export function beginAction(receiver: AccountNumber, sender: AccountNumber): Action {
  receivers.push(receiver);
  senders.push(sender);
  return currentAction();
}

export function endAction(): void {
  receivers.pop();
  senders.pop();
}
