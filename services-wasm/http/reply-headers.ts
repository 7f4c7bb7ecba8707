// Which headers a chain service may set on its reply (docs/http.md §2); anything else could break
// the node's own framing or the security of other subdomains.

import { HttpReply, accountName, check } from "../sdk/index";

const ALLOWED = [
  "Access-Control-Allow-Credentials", "Access-Control-Allow-Headers", "Access-Control-Allow-Methods",
  "Access-Control-Allow-Origin", "Allow", "Cache-Control", "Content-Encoding", "Content-Security-Policy",
  "ETag", "Location", "Set-Cookie", "X-Content-Type-Options",
];

export function checkReplyHeaders(server: u64, reply: HttpReply): void {
  for (let i = 0; i < reply.headers.length; i++) {
    const name = reply.headers[i].name;
    check(ALLOWED.includes(name), "service " + accountName(server) + " attempted to set http header " + name);
  }
}
