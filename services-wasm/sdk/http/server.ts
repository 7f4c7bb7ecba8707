// The http-server service (`http`) calls serveSys. A service that trusts the `socket` or `user`
// arguments must check that the caller is that service (docs/serving.md §5).

import { AccountNumber } from "../names/types";
import { account } from "../names/account";
import { getSender } from "../service/context";
import { check } from "../abort";

const HTTP_SERVER = account("http");

/** The account of the http-server service. */
export function httpServer(): AccountNumber {
  return HTTP_SERVER;
}

/** Aborts unless the running action was sent by the http-server service. */
export function checkHttpServerCaller(): void {
  check(getSender() == HTTP_SERVER, "only the http-server service may call this action");
}
