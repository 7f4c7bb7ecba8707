// http: the http-server service (docs/serving.md §1, docs/http.md §1-2). The node hands it every request for
// the root domain and the service subdomains through the `serve` export (RPC mode); it picks
// the service whose serveSys answers, sends the reply on the request's socket, and keeps the
// registrations of which service serves which subdomain.
//
// Routing, in order: `/common/...` on any host -> common-api; the root domain -> homepage; a
// subdomain -> the server registered for it; unanswered -> sites; still unanswered -> 404
// (OPTIONS -> 200), both with CORS.

import {
  AccountNumber, HttpReply, HttpRequest, Option, Packed, account, check, checkoutSubjective, commitSubjective,
  currentAction, getSender, host, pack, some, none, unpack, withCors,
} from "../sdk/index";
import { accountHasCode } from "../sdk/native/index";
import { ServerInterface } from "../sdk/http/server-interface";
import { escapeHtml } from "../sdk/http/text";
import { hostServiceName } from "./host-service";
import { ServeArgs } from "./serve-args";
import { checkReplyHeaders } from "./reply-headers";
import { DeferredReply, RegisteredServer, deferredReplies, servers } from "./tables";

/** The request being served: the http instance is re-entered by sendReply/deferReply/rootHost. */
class Serving {
  /** The service whose serveSys runs now; only it may send or defer the reply. */
  owner: AccountNumber = 0;
  answered: bool = false;
  deferred: bool = false;
  constructor(public socket: i32, public rootHost: string, public user: Option<AccountNumber>) {}
}

let serving: Serving | null = null;

const COMMON_API = account("common-api");
const HOMEPAGE = account("homepage");
const SITES = account("sites");

/** Sends a packed HttpReply on `socket`. */
function send(socket: i32, reply: Uint8Array): void {
  const err = host.socketSend(socket, reply.dataStart, reply.length);
  check(err == 0, "could not send the reply (socket error " + err.toString() + ")");
}

/** Calls `server`'s serveSys unless it has no code; null when it declined. */
function ask(state: Serving, server: AccountNumber, request: Packed<HttpRequest>): Packed<HttpReply> | null {
  if (!accountHasCode(server)) return null;
  state.owner = server;
  const reply = new ServerInterface(server).serveSys(request, some<i32>(state.socket), state.user);
  state.owner = 0;
  if (reply !== null) checkReplyHeaders(server, reply.value);
  return reply;
}

/** The service a request is for before sites: common-api, homepage or the registered server. */
function handlerOf(request: HttpRequest, rootHost: string): AccountNumber {
  if (request.target.startsWith("/common/")) return COMMON_API;
  if (request.host == rootHost) return HOMEPAGE;
  const registered = servers.get(account(hostServiceName(request.host, rootHost)));
  return registered !== null ? registered.server : 0;
}

/** Host export: serves one request (RPC mode). */
export function serve(): void {
  const args = unpack<ServeArgs>(currentAction().rawData);
  const request = args.request;
  const state = new Serving(args.socket, args.rootHost, args.user);
  serving = state;
  const handler = handlerOf(request.value, args.rootHost);
  let reply = handler != 0 ? ask(state, handler, request) : null;
  if (reply === null && !state.answered && !state.deferred) reply = ask(state, SITES, request);
  serving = null;
  if (state.answered || state.deferred) return;
  if (reply !== null) return send(state.socket, reply.bytes);
  const unanswered = request.value.method == "OPTIONS"
    ? new HttpReply(200)
    : HttpReply.html("The resource '" + escapeHtml(request.value.target) + "' was not found", 404);
  send(state.socket, pack<HttpReply>(withCors(unanswered)));
}

/** Deferred requests this context took back with claimReply, by socket: the service that may reply. */
const claimed = new Map<i32, AccountNumber>();

/** Removes the deferred reply of `socket`, which `sender` must own, to `verb` (send or claim it). */
function takeDeferred(socket: i32, sender: AccountNumber, verb: string): void {
  checkoutSubjective();
  const deferred = deferredReplies.get(socket);
  check(deferred !== null, "no deferred reply on that socket");
  check(deferred!.owner == sender, "only the service that deferred the reply may " + verb);
  deferredReplies.remove(socket);
  check(commitSubjective() != 0, "could not record the reply");
}

@service("http")
export class Http {
  /** The sender's subdomain is served from now on by `server`'s serveSys. */
  @action
  registerServer(server: AccountNumber): void {
    servers.put(new RegisteredServer(getSender(), server));
  }

  /** The root host of the request being served (for services that derive names from the host). */
  @action
  rootHost(): string {
    const state = serving;
    check(state !== null, "no HTTP request is being served");
    return state!.rootHost;
  }

  /**
   * Sends the reply of request `socket`: during its serveSys (then serveSys's own return value is
   * not used) or later for a deferred one. Only the service that was asked may send it.
   */
  @action
  sendReply(socket: i32, response: HttpReply): void {
    const sender = getSender();
    const state = serving;
    if (state !== null && state.socket == socket && !state.deferred) {
      check(sender == state.owner, "only the service serving the request may reply to it");
      check(!state.answered, "the request was already answered");
      state.answered = true;
    } else if (claimed.has(socket)) {
      check(claimed.get(socket) == sender, "only the service that deferred the reply may send it");
      claimed.delete(socket);
    } else {
      takeDeferred(socket, sender, "send it");
    }
    checkReplyHeaders(sender, response);
    send(socket, pack<HttpReply>(response));
  }

  /**
   * psibase's claimReply: this context takes back the deferred request `socket` (only the service
   * that deferred it may): it owns the socket from now on, so if it ends without sending the
   * reply, or fails, the node answers the request (500) instead of leaving it open.
   */
  @action
  claimReply(socket: i32): void {
    const sender = getSender();
    takeDeferred(socket, sender, "claim it");
    check(host.socketAutoClose(socket, 1) == 0, "could not take the socket");
    claimed.set(socket, sender);
  }

  /** The request `socket` stays open after serveSys returns; sendReply answers it later. */
  @action
  deferReply(socket: i32): void {
    const state = serving;
    check(state !== null, "no HTTP request is being served");
    check(state!.socket == socket, "only the request being served can be deferred");
    check(getSender() == state!.owner, "only the service serving the request may defer it");
    check(!state!.answered, "the request was already answered");
    checkoutSubjective();
    deferredReplies.put(new DeferredReply(socket, state!.owner));
    check(commitSubjective() != 0, "could not record the deferred reply");
    check(host.socketAutoClose(socket, 0) == 0, "could not keep the socket open");
    state!.deferred = true;
  }
}
