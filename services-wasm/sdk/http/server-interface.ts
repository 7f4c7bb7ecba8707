// The serveSys interface (seed 1 §4.5) as calls: `new ServerInterface(server).serveSys(...)`
// calls any service that serves HTTP. Declared as a service only so the transform generates
// its Actor; nothing dispatches to this class.

import { AccountNumber } from "../names/types";
import { Option } from "../fracpack/index";
import { HttpRequest } from "./request";
import { HttpReply } from "./reply";

@service("http")
class ServerInterfaceDeclaration {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    return null;
  }
}

export { ServerInterfaceDeclarationActor as ServerInterface };
