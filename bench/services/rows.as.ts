// A query service for bench/http: `fill` writes ten rows; GET /rows answers the first five as
// JSON, read through the SDK's table API in serveSys (RPC mode), as a real service would.

import { AccountNumber, HttpReply, HttpRequest, Option, checkHttpServerCaller, jsonString } from "../../services-wasm/sdk/index";
import { fillRows, rows } from "./row-table.as";

@service("rows")
export class Rows {
  @action
  fill(): void {
    fillRows(10);
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.method != "GET" || request.path() != "/rows") return null;
    let json = "[";
    let n = 0;
    for (const c = rows.primary.first(); c.valid && n < 5; c.next()) {
      const row = c.row();
      json += (n++ ? "," : "") + "{\"id\":" + row.id.toString() + ",\"label\":" + jsonString(row.label) + ",\"amount\":\"" + row.amount.toString() + "\"}";
    }
    return HttpReply.json(json + "]");
  }
}
