// CORS A of docs/http.md §3: any origin, the methods services receive, any header.

import { HttpReply } from "./reply";

/** Adds CORS A to `reply`; returns it. */
export function withCors(reply: HttpReply): HttpReply {
  return reply
    .withHeader("Access-Control-Allow-Origin", "*")
    .withHeader("Access-Control-Allow-Methods", "POST, GET, OPTIONS, HEAD, PUT, DELETE")
    .withHeader("Access-Control-Allow-Headers", "*");
}
