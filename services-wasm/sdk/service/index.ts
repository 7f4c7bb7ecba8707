export { Action, currentAction } from "./action";
export { getService, getReceiver, getSender, startService, beginAction, endAction } from "./context";
export { setReturn, unknownAction } from "./dispatch";
export { callAction } from "./call";
export { emitEvent } from "./events";
export { DbId } from "../tables/db";
