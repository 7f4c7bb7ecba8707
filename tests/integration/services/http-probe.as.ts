// A test service (deployed privileged as `probe`, serving its own subdomain) that answers each
// path with one of the serveSys outcomes of docs/serving.md §4.5 and docs/http.md §2, or shows what it was
// given (the request, the logged-in user). `claimAtBlock`, registered as a subjective onBlock
// callback, takes over the request /defer-for-block left open and fails.

import {
  AccountNumber, DbId, HttpHeader, HttpReply, HttpRequest, Option, Table, abort, checkHttpServerCaller,
  accountName, checkoutSubjective, commitSubjective, host, jsonString, pack,
} from "../../../services-wasm/sdk/index";
import { HttpActor } from "../../../services-wasm/http/index";

/** The socket of the request /defer left open. */
@fracpack
class Deferred {
  constructor(public id: u8 = 0, public socket: i32 = 0) {}
}

const deferred = new Table<Deferred, u8>(1, (d: Deferred): u8 => d.id, DbId.subjective);
/** The id of the request /defer-for-block left for the block callback. */
const FOR_BLOCK: u8 = 1;

function deferReply(socket: i32, id: u8): void {
  new HttpActor().deferReply(socket);
  checkoutSubjective();
  deferred.put(new Deferred(id, socket));
  commitSubjective();
}

@service("probe")
export class Probe {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const path = request.path();
    if (path == "/reply") return HttpReply.text("hello", "text/plain", 201).withHeader("Cache-Control", "no-store");
    if (path == "/abort") abort("probe refused");
    if (path == "/spin") {
      // Runs until the query's fuel is gone (the node answers its limit error).
      let turns: u64 = 1;
      while (turns != 0) turns = turns * 3 + 1;
    }
    if (path == "/bad-header") return HttpReply.text("x").withHeader("X-Custom", "1");
    if (path == "/bad-status") return HttpReply.text("x", "text/plain", 99);
    if (path == "/bad-header-value") return HttpReply.text("x").withHeader("Cache-Control", "no-store\r\nX-Injected: 1");
    if (path == "/bad-content-type") return HttpReply.text("x", "text/plain\n");
    if (path == "/send-elsewhere") {
      // A reply on a socket that is not this request's: the node says whether it is open (errno 8 when not).
      const reply = pack<HttpReply>(HttpReply.text("elsewhere"));
      return HttpReply.json(host.socketSend(socket.get() + 1, reply.dataStart, reply.length).toString());
    }
    if (path == "/send") {
      new HttpActor().sendReply(socket.get(), HttpReply.text("sent"));
      return HttpReply.text("ignored");
    }
    if (path == "/defer-and-abort") {
      // The deferral outlives the abort (docs/host-abi.md §12.8): the request stays open.
      new HttpActor().deferReply(socket.get());
      abort("deferred, then aborted");
    }
    if (path == "/defer" || path == "/defer-for-block") {
      deferReply(socket.get(), path == "/defer" ? 0 : FOR_BLOCK);
      return null;
    }
    if (path == "/answer") {
      checkoutSubjective();
      const row = deferred.get(0);
      commitSubjective();
      if (row === null) return HttpReply.text("nothing deferred", "text/plain", 404);
      new HttpActor().sendReply(row.socket, HttpReply.text("deferred answer"));
      return HttpReply.text("answered");
    }
    if (path == "/claim-and-fail" || path == "/claim-and-send") {
      // psibase's claimReply: this context owns the deferred request from now on.
      checkoutSubjective();
      const row = deferred.get(0);
      commitSubjective();
      if (row === null) return HttpReply.text("nothing deferred", "text/plain", 404);
      new HttpActor().claimReply(row.socket);
      if (path == "/claim-and-fail") abort("claimed, then failed");
      new HttpActor().sendReply(row.socket, HttpReply.text("claimed answer"));
      return HttpReply.text("claimed");
    }
    if (path == "/user") return HttpReply.json(user.hasValue ? jsonString(accountName(user.value)) : "null");
    if (path == "/cookie") {
      const cookie = request.header("Cookie");
      return HttpReply.json(cookie !== null ? jsonString(cookie!) : "null");
    }
    if (path == "/echo") {
      let headers = "";
      for (let i = 0; i < request.headers.length; i++) headers += (i ? "," : "") + jsonString(request.headers[i].name.toLowerCase());
      return HttpReply.json(
        "{\"method\":" + jsonString(request.method) + ",\"host\":" + jsonString(request.host) + ",\"target\":" + jsonString(request.target) +
        ",\"contentType\":" + jsonString(request.contentType) + ",\"body\":" + request.body.length.toString() + ",\"headers\":[" + headers + "]}",
      );
    }
    return null;
  }

  /** A subjective onBlock callback: claims the request /defer-for-block left open, once, and fails. */
  @action
  claimAtBlock(): void {
    checkoutSubjective();
    const row = deferred.get(FOR_BLOCK);
    if (row !== null) deferred.remove(FOR_BLOCK);
    commitSubjective();
    if (row === null) return;
    new HttpActor().claimReply(row.socket);
    abort("claimed at a block, then failed");
  }
}
