// CORS A of http.md §3: any origin, the methods services receive, any header.

import { HttpHeader } from "./header";
import { HttpReply } from "./reply";

/** Adds CORS A to `reply`; returns it. */
export function withCors(reply: HttpReply): HttpReply {
  reply.headers.push(new HttpHeader("Access-Control-Allow-Origin", "*"));
  reply.headers.push(new HttpHeader("Access-Control-Allow-Methods", "POST, GET, OPTIONS, HEAD, PUT, DELETE"));
  reply.headers.push(new HttpHeader("Access-Control-Allow-Headers", "*"));
  return reply;
}
