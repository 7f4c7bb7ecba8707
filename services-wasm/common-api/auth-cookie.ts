// POST /common/set-auth-cookie {"accessToken"} and /common/remove-auth-cookie (docs/http.md §5): the
// login token as an HttpOnly session cookie, so a browser sends it with every request to the
// network's domains. Credentialed CORS is granted to the supervisor's secure origin only.

import { HttpReply, HttpRequest, check, parseJson } from "../sdk/index";
import { JsonKind } from "../sdk/json/value";

const THIRTY_DAYS = "2592000";

function isLocalhost(host: string): bool {
  return host == "localhost" || host.endsWith(".localhost");
}

/**
 * The session cookie (docs/administration.md §5.2). `__Host-` asks browsers for Secure, `Path=/` and no Domain;
 * they take Secure cookies from http://localhost and *.localhost too (secure contexts).
 */
const SESSION_COOKIE = "__Host-SESSION";

/** Whether `origin` is `scheme://host`, with or without a port. */
function isOriginOf(origin: string, scheme: string, host: string): bool {
  const base = scheme + "://" + host;
  return origin == base || origin.startsWith(base + ":");
}

/** The supervisor's origin when the request comes from it over a secure origin; else null. */
function supervisorOrigin(request: HttpRequest, rootHost: string): string | null {
  const origin = request.header("Origin");
  if (origin === null) return null;
  const supervisor = "supervisor." + rootHost;
  const secure = isOriginOf(origin!, "https", supervisor) || (isLocalhost(supervisor) && isOriginOf(origin!, "http", supervisor));
  return secure ? origin : null;
}

function withSupervisorCors(reply: HttpReply, request: HttpRequest, rootHost: string): HttpReply {
  const origin = supervisorOrigin(request, rootHost);
  if (origin === null) return reply;
  const requested = request.header("Access-Control-Request-Headers");
  return reply
    .withHeader("Access-Control-Allow-Origin", origin!)
    .withHeader("Access-Control-Allow-Methods", "POST, OPTIONS")
    .withHeader("Access-Control-Allow-Headers", requested !== null ? requested! : "Content-Type");
}

function cookieReply(request: HttpRequest, value: string, maxAge: string): HttpReply {
  const cookie = SESSION_COOKIE + "=" + value + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + maxAge + "; Secure";
  return HttpReply.text("")
    .withHeader("Set-Cookie", cookie)
    .withHeader("Access-Control-Allow-Credentials", "true");
}

/** The access token of a set-auth-cookie body; aborts naming what is wrong. */
function accessToken(request: HttpRequest): string {
  const json = parseJson(request.bodyText());
  const token = json.get("accessToken");
  check(token !== null && token!.kind == JsonKind.String, "expected {\"accessToken\": string}");
  const text = token!.text;
  // The token becomes a cookie value: refuse what would break out of it.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    check(c > 0x20 && c < 0x7f && c != 0x3b && c != 0x2c && c != 0x22 && c != 0x5c, "accessToken holds a character a cookie cannot carry");
  }
  return text;
}

export function isAuthCookiePath(path: string): bool {
  return path == "/common/set-auth-cookie" || path == "/common/remove-auth-cookie";
}

/** Answers a request for an auth-cookie path; null for methods it does not take. */
export function serveAuthCookie(request: HttpRequest, path: string, rootHost: string): HttpReply | null {
  const set = path == "/common/set-auth-cookie";
  if (request.method == "OPTIONS") {
    return withSupervisorCors(new HttpReply(200).withHeader("Access-Control-Allow-Credentials", "true"), request, rootHost);
  }
  if (request.method != "POST") return null;
  const reply = set ? cookieReply(request, accessToken(request), THIRTY_DAYS) : cookieReply(request, "", "0");
  return withSupervisorCors(reply, request, rootHost);
}
