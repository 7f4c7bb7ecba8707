// homepage: the network's home page at the root domain (docs/serving.md §1, §4.3). It shows the chain id
// and links to every service that serves its subdomain. An index.html the homepage account
// stores with sites replaces it.

import {
  AccountNumber, HttpReply, HttpRequest, Option, accountName, bytesToHex, checkHttpServerCaller, getService, withCors,
} from "../sdk/index";
import { escapeHtml } from "../sdk/http/text";
import { getStatus } from "../sdk/native/index";
import { HttpActor } from "../http/index";
import { servers } from "../http/tables";
import { SitesActor } from "../sites/index";

/** The port of the Host header the client used (":8080"), so links stay on this node. */
function portOf(request: HttpRequest): string {
  const host = request.header("host");
  if (host === null) return "";
  const colon = host.lastIndexOf(":");
  return colon > host.lastIndexOf("]") ? host.substring(colon) : "";
}

function homePage(request: HttpRequest, rootHost: string): string {
  const port = portOf(request);
  let links = "";
  for (const c = servers.primary.first(); c.valid; c.next()) {
    const name = accountName(c.row().service);
    links += "<li><a href=\"//" + escapeHtml(name + "." + rootHost + port) + "/\">" + escapeHtml(name) + "</a></li>\n";
  }
  const chainId = bytesToHex(getStatus().chainId.bytes);
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escapeHtml(rootHost) + "</title></head>\n" +
    "<body>\n<h1>" + escapeHtml(rootHost) + "</h1>\n<p>Chain id <code>" + chainId + "</code></p>\n" +
    "<h2>Services</h2>\n<ul>\n" + links + "</ul>\n</body></html>\n";
}

@service("homepage")
export class Homepage {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.method != "GET" && request.method != "HEAD") return null;
    const path = request.path();
    if (path != "/" && path != "/index.html") return null;
    // A page the homepage account stored wins.
    const stored = new SitesActor().serveFile(getService(), path);
    if (stored !== null) return stored;
    return withCors(HttpReply.html(homePage(request, new HttpActor().rootHost())));
  }
}
