// GET / of a service that has no user interface of its own: a page that says what the service is
// and links the endpoints it serves, so the home page's link to every server leads somewhere.

import { HttpRequest } from "./request";
import { HttpReply } from "./reply";
import { escapeHtml } from "./text";

/** The page for GET /, else null (serveSys goes on with its other handlers). `endpoints` are paths such as "/graphql". */
export function serveIndexPage(request: HttpRequest, title: string, description: string, endpoints: Array<string>): HttpReply | null {
  if (request.method != "GET" || request.path() != "/") return null;
  let links = "";
  for (let i = 0; i < endpoints.length; ++i) {
    const path = escapeHtml(endpoints[i]);
    links += "<li><a href=\"" + path + "\">" + path + "</a></li>\n";
  }
  return HttpReply.html(
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escapeHtml(title) + "</title></head>\n" +
    "<body>\n<h1>" + escapeHtml(title) + "</h1>\n<p>" + escapeHtml(description) + "</p>\n<ul>\n" + links + "</ul>\n</body></html>\n",
  );
}
