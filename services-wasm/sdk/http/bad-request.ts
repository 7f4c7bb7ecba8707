// The reply to a client's mistake in what it sent (JSON it got wrong, a body that is not text):
// 400, the problem as plain text, and CORS A so a page on another subdomain can read why.

import { HttpReply } from "./reply";
import { withCors } from "./cors";

export function badRequest(message: string): HttpReply {
  return withCors(HttpReply.text(message, "text/plain", 400));
}
