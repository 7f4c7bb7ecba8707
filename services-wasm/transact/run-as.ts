// runAs (docs/administration.md §4.3): run an action with another account's authority. The permission rules are
// evaluated in order against the runAs calls currently on the stack, which transact keeps itself:
// nested runAs calls re-enter this same instance, so module state spans them.

import { AccountNumber, Action, callActionAs, getSender } from "../sdk/index";
import {
  ServiceMethod, runAsMatchedExpandedReq, runAsMatchedReq, runAsOtherReq, runAsRequesterReq,
} from "../sdk/auth/index";
import { authServiceOf, requireAuth } from "./auth";
import { enforcesAuth } from "./boot";

/** Whether `pattern` allows `action` (docs/administration.md §4.3: an empty service or method matches any). */
function allows(pattern: ServiceMethod, action: Action): bool {
  return (pattern.service == 0 || pattern.service == action.service) && (pattern.method == 0 || pattern.method == action.method);
}

/** A runAs in progress: `service` may perform `allowedActions` for `sender` while it lasts. */
class RunAsFrame {
  constructor(public sender: AccountNumber, public service: AccountNumber, public allowedActions: Array<ServiceMethod>) {}

  /** Rule 3: the caller is this frame's service and `action` is one it was allowed. */
  grants(caller: AccountNumber, action: Action): bool {
    if (this.sender != action.sender || this.service != caller) return false;
    for (let i = 0; i < this.allowedActions.length; i++) {
      if (allows(this.allowedActions[i], action)) return true;
    }
    return false;
  }
}

const frames = new Array<RunAsFrame>();

/** The request kind rules 2 to 4 ask the auth service to approve. */
function requestFor(caller: AccountNumber, action: Action, allowedActions: Array<ServiceMethod>): u32 {
  if (caller == action.sender) return runAsRequesterReq;
  for (let i = 0; i < frames.length; i++) {
    if (frames[i].grants(caller, action)) return allowedActions.length == 0 ? runAsMatchedReq : runAsMatchedExpandedReq;
  }
  return runAsOtherReq;
}

export function runAs(action: Action, allowedActions: Array<ServiceMethod>): Uint8Array {
  const caller = getSender();
  // Before finishBoot nothing is authorized, runAs included.
  if (enforcesAuth()) {
    const authService = authServiceOf(action.sender);
    // Rule 1: the sender's auth service acts for it without asking.
    if (caller != authService) requireAuth(authService, requestFor(caller, action, allowedActions), caller, action, allowedActions, []);
  }
  frames.push(new RunAsFrame(action.sender, action.service, allowedActions));
  const result = callActionAs(action);
  // An abort ends the whole context, so the frame only needs popping on success.
  frames.pop();
  return result;
}
