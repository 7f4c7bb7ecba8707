// event-reader: answers `GET /events?table=<table>&first=<n>[&where=<condition>]` with the page the events service's
// query gives (our event tables, docs/system-services.md), as JSON, so `make psibase-check` can
// see over HTTP how the events a psibase-built service emitted through events::event decode.

import { AccountNumber, HttpReply, HttpRequest, Option, checkHttpServerCaller, jsonString } from "../../services-wasm/sdk/index";
import { EventQuery } from "../../services-wasm/sdk/events/index";

@service("ev-reader")
export class EventReader {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.method != "GET" || request.path() != "/events") return null;
    const table = request.queryParam("table");
    const first = request.queryParam("first");
    const where = request.queryParam("where");
    const query = new EventQuery(table !== null ? table! : "");
    if (where !== null) query.condition(where!);
    if (first !== null) query.first(I64.parseInt(first!));
    const page = query.execute();
    const edges = new Array<string>();
    for (let i = 0; i < page.edges.length; i++) edges.push("{\"cursor\":" + jsonString(page.edges[i].cursor) + ",\"fields\":" + page.edges[i].fields + "}");
    const error = page.error;
    return HttpReply.json("{\"error\":" + (error !== null ? jsonString(error!) : "null") + ",\"edges\":[" + edges.join(",") + "]}");
  }
}
