// A test service that grows the database fast (deployed as `bulk`): `fill(count, size)` appends
// `count` rows of `size` bytes each and moves a summary row in the same action; `GET /last`
// answers the summary and checks the last row it names, read whole, so a query that sees a
// summary also sees every byte of the rows it counts (tests/integration/http/query-threads-growth.test.ts);
// `/graphql` pages the rows (tests/integration/services/large-rows-page.test.ts), whose pages can
// be larger than one kvRange reply (docs/host-abi.md §3).

import { AccountNumber, HttpReply, HttpRequest, Index, Option, Table, abort, checkHttpServerCaller } from "../../../services-wasm/sdk/index";

@fracpack
class Summary {
  constructor(public key: u8 = 0, public rows: u32 = 0, public size: u32 = 0) {}
}

@fracpack
class Bulk {
  constructor(public id: u32 = 0, public data: string = "") {}
}

const summaries = new Table<Summary, u8>(1, (row: Summary): u8 => row.key);
const bulks = new Table<Bulk, u32>(2, (row: Bulk): u32 => row.id);

/** Row `id`'s bytes: its id's last digit, repeated. */
function dataOf(id: u32, size: u32): string {
  return String.fromCharCode(48 + <i32>(id % 10)).repeat(<i32>size);
}

@query
class BulkQuery {
  get bulks(): Index<Bulk, u32> {
    return bulks.primary;
  }
}

@service("bulk")
export class BulkRows {
  @action
  fill(count: u32, size: u32): void {
    const found = summaries.get(0);
    const summary = found !== null ? found : new Summary();
    for (let i: u32 = 0; i < count; i++) bulks.put(new Bulk(summary.rows + i, dataOf(summary.rows + i, size)));
    summary.rows += count;
    summary.size = size;
    summaries.put(summary);
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.path() == "/graphql") return new BulkQuery().serveGraphQL(request);
    if (request.path() != "/last") return null;
    const summary = summaries.get(0);
    if (summary === null) return HttpReply.json("0");
    const last = bulks.get(summary.rows - 1);
    if (last === null) abort("the summary counts a row that is not there");
    if (last!.data != dataOf(summary.rows - 1, summary.size)) abort("the last row's bytes are not the ones written");
    return HttpReply.json(summary.rows.toString());
  }
}
