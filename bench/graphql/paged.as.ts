// A GraphQL service for bench/graphql: `fill` writes 200 rows; its generated @query root serves
// them as a Connection at /graphql (read in serveSys, RPC mode, as a real service would).

import { AccountNumber, HttpReply, HttpRequest, Index, Option, Table, checkHttpServerCaller } from "../../services-wasm/sdk/index";

@fracpack
class Row {
  constructor(public id: u32 = 0, public owner: AccountNumber = 0, public label: string = "", public amount: u64 = 0) {}
}

const rows = new Table<Row, u32>(1, (r: Row): u32 => r.id);

@query
class PagedQuery {
  get rows(): Index<Row, u32> {
    return rows.primary;
  }
}

@service("paged")
export class Paged {
  @action
  fill(): void {
    for (let i: u32 = 0; i < 200; i++) rows.put(new Row(i, 0, "row " + i.toString(), <u64>i * 1000));
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    return new PagedQuery().serveGraphQL(request);
  }
}
