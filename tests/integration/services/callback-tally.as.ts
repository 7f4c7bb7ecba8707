// A test service for subjective callbacks (deployed as `tally`): `tally`, registered as a
// subjective onBlock or onTransaction callback, counts its runs in a writeOnly row and then aborts
// while `setFailing(true)` is in force, so a test sees whether a failed callback's writes stay;
// `GET /tally` answers the count (writeOnly is readable in RPC mode).

import { AccountNumber, DbId, HttpReply, HttpRequest, Option, Table, abort, checkHttpServerCaller } from "../../../services-wasm/sdk/index";

@fracpack
class TallyRow {
  constructor(public key: u8 = 0, public count: u32 = 0) {}
}

@fracpack
class FailingRow {
  constructor(public key: u8 = 0, public failing: bool = false) {}
}

const tallies = new Table<TallyRow, u8>(1, (row: TallyRow): u8 => row.key, DbId.writeOnly);
const failing = new Table<FailingRow, u8>(2, (row: FailingRow): u8 => row.key);

@service("tally")
export class Tally {
  /** A callback: any arguments (onTransaction's id and trace) are not read. */
  @action
  tally(): void {
    const found = tallies.get(0);
    const row = found !== null ? found : new TallyRow();
    row.count++;
    tallies.put(row);
    const flag = failing.get(0);
    if (flag !== null && flag.failing) abort("tally fails as asked");
  }

  @action
  setFailing(on: bool): void {
    failing.put(new FailingRow(0, on));
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.path() != "/tally") return null;
    const row = tallies.get(0);
    return HttpReply.json(row !== null ? row.count.toString() : "0");
  }
}
