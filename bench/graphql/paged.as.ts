// A GraphQL service for bench/graphql: `fill` writes 200 rows; its generated @query root serves
// them as a Connection at /graphql (read in serveSys, RPC mode, as a real service would).

import { AccountNumber, HttpReply, HttpRequest, Index, Option, checkHttpServerCaller } from "../../services-wasm/sdk/index";
import { Row, fillRows, rows } from "../services/row-table.as";

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
    fillRows(200);
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    return new PagedQuery().serveGraphQL(request);
  }
}
