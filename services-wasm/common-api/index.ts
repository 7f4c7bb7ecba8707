// common-api: the `/common/` tree every domain shares (docs/serving.md §4.2): the chain id, the TaPoS of
// the head block, which service a domain belongs to, the root domain, JSON transactions packed to
// fracpack, and the common files: what the common-api account stores with sites under
// `/common/` is served there on every domain.

import {
  AccountNumber, HttpReply, HttpRequest, Option, badRequest, bytesToHex, check, checkHttpServerCaller, getService, jsonString,
  pack, parseJson, withCors,
} from "../sdk/index";
import { asRecord, jsonProblemSeen, startCollectingJsonProblems, stopCollectingJsonProblems } from "../sdk/json/index";
import { isValidUtf8 } from "../sdk/utf8";
import { getStatus } from "../sdk/native/index";
import { HttpActor } from "../http/index";
import { hostServiceName } from "../http/host-service";
import { recentIndexOf, suffixOf } from "../transact/tapos";
import { Transaction } from "../transact/transaction";
import { isAuthCookiePath, serveAuthCookie } from "./auth-cookie";
import { packSignedTransaction } from "./pack";
import { SitesActor } from "../sites/index";

/** The root domain of the request being served (the http service knows it). */
function rootHost(): string {
  return new HttpActor().rootHost();
}

/** `{refBlockIndex, refBlockSuffix}` of the head block (docs/formats.md §6). */
function headTapos(): string {
  const head = getStatus().head;
  check(head !== null, "the chain has no head block yet");
  const index = recentIndexOf(head!.header.blockNum);
  return "{\"refBlockIndex\":" + index.toString() + ",\"refBlockSuffix\":" + suffixOf(head!).toString() + "}";
}

@service("common-api")
export class CommonApi {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const path = request.path();
    if (isAuthCookiePath(path)) return serveAuthCookie(request, path, rootHost());
    if (request.method == "POST") return this.pack(request, path);
    if (request.method != "GET" && request.method != "HEAD") return null;
    const json = this.answer(request, path);
    if (json !== null) return withCors(HttpReply.json(json));
    const file = new SitesActor().serveFile(getService(), path);
    return file !== null ? withCors(file) : null;
  }

  /** A transaction from its JSON form (docs/formats.md §3), packed. */
  @action
  packTransaction(transaction: Transaction): Uint8Array {
    return pack<Transaction>(transaction);
  }

  /** A JSON transaction packed; what the client got wrong in it is a 400 naming the member. */
  private pack(request: HttpRequest, path: string): HttpReply | null {
    if (path != "/common/pack/Transaction" && path != "/common/pack/SignedTransaction") return null;
    const body = request.body;
    if (!isValidUtf8(body.dataStart, body.length)) return badRequest("the body is not UTF-8");
    startCollectingJsonProblems();
    const json = parseJson(request.bodyText());
    let packed: Uint8Array;
    if (path == "/common/pack/Transaction") {
      const transaction = asRecord<Transaction>(json, "transaction");
      packed = jsonProblemSeen() ? new Uint8Array(0) : this.packTransaction(transaction);
    } else {
      packed = packSignedTransaction(json);
    }
    const problem = stopCollectingJsonProblems();
    return problem !== null ? badRequest(problem) : withCors(HttpReply.bytes("application/octet-stream", packed));
  }

  private answer(request: HttpRequest, path: string): string | null {
    if (path == "/common/chainid") return jsonString(bytesToHex(getStatus().chainId.bytes));
    if (path == "/common/tapos/head") return headTapos();
    if (path == "/common/thisservice") return jsonString(hostServiceName(request.host, rootHost()));
    if (path == "/common/rootdomain") return jsonString(rootHost());
    return null;
  }
}
