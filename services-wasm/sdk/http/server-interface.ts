// The serveSys interface (docs/serving.md §4.5) as a call: `new ServerInterface(server).serveSys(...)`
// calls any service that serves HTTP. The request and the reply travel as Packed values: the
// http service hands on the request the node packed and sends the reply as the server packed
// it, encoding neither again.

import { AccountNumber } from "../names/types";
import { methodNumber } from "../names/method";
import { Option, Packed, pack, unpack } from "../fracpack/index";
import { callAction } from "../service/call";
import { HttpRequest } from "./request";
import { HttpReply } from "./reply";

const SERVE_SYS = methodNumber("serveSys");

/** serveSys's parameters, packed as the serving service's dispatcher reads them. */
@fracpack
class ServeSysArgs {
  constructor(
    public request: Packed<HttpRequest>,
    public socket: Option<i32>,
    public user: Option<AccountNumber>,
  ) {}
}

export class ServerInterface {
  constructor(public service: AccountNumber) {}

  /** The service's reply to `request`, or null when it leaves the request to others. */
  serveSys(request: Packed<HttpRequest>, socket: Option<i32>, user: Option<AccountNumber>): Packed<HttpReply> | null {
    const result = callAction(0, this.service, SERVE_SYS, pack<ServeSysArgs>(new ServeSysArgs(request, socket, user)));
    return unpack<Packed<HttpReply> | null>(result);
  }
}
