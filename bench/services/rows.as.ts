// A query service for bench/http: `fill` writes ten rows; GET /rows answers the first five as
// JSON, read through the SDK's table API in serveSys (RPC mode), as a real service would.

import {
  AccountNumber, HttpReply, HttpRequest, Option, Table, checkHttpServerCaller, jsonString,
} from "../../services-wasm/sdk/index";

@fracpack
class Row {
  constructor(public id: u32 = 0, public owner: AccountNumber = 0, public label: string = "", public amount: u64 = 0) {}
}

const rows = new Table<Row, u32>(1, (r: Row): u32 => r.id);

@service("rows")
export class Rows {
  @action
  fill(): void {
    for (let i: u32 = 0; i < 10; i++) rows.put(new Row(i, 0, "row " + i.toString(), <u64>i * 1000));
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
