// notify-control: lets `make psibase-check` observe and drive psibase's NotifyService from outside,
// as psibase's test_notify does from its tester (docs/host-abi.md §12.8):
//   GET    /count?service=<account>&table=<0 blocks | 1 transactions>  its writeOnly counter, or null
//   POST   /fail?service=<account>                                     puts its subjective FailTable row
//   DELETE /fail?service=<account>                                     removes it
//   GET    /fail?service=<account>                                     whether the row is there
// The tables are psibase's DbTables layout: the service's 8-byte account, the table number (u16,
// big-endian), the primary index byte 0, then the key (empty for a singleton). Privileged, and a
// handle module: kvOpen gives it other services' prefixes.

import { AccountNumber, HttpReply, HttpRequest, Option, account, checkHttpServerCaller, checkoutSubjective, commitSubjective } from "../../services-wasm/sdk/index";
import { HandleDb, KvMode, kvClose, kvGetAt, kvOpen } from "../../services-wasm/sdk/handles/index";
import { kvPut, kvRemove } from "../../services-wasm/sdk/host";

const EMPTY_KEY = new Uint8Array(0);
/** FailRow {} packed: an extensible struct with no fields (u16 fixed size 0). */
const FAIL_ROW = new Uint8Array(2);

/** A handle on `service`'s table `table` (its primary index) in `db`. */
function openTable(db: u32, service: AccountNumber, table: u16, mode: u32): u32 {
  const prefix = new Uint8Array(11);
  for (let i = 0; i < 8; i++) prefix[i] = <u8>(service >> (<u64>(56 - 8 * i)));
  prefix[8] = <u8>(table >> 8);
  prefix[9] = <u8>table;
  prefix[10] = 0;
  return kvOpen(db, prefix, mode);
}

@service("notify-ctl")
export class NotifyControl {
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const name = request.queryParam("service");
    if (name === null) return null;
    const service = account(name!);
    const path = request.path();
    if (path == "/count" && request.method == "GET") {
      const table = request.queryParam("table");
      const handle = openTable(HandleDb.writeOnly, service, table !== null && table! == "1" ? 1 : 0, KvMode.read);
      const row = kvGetAt(handle, EMPTY_KEY);
      kvClose(handle);
      // A counter row: u16 fixed size (4), then the u32 count.
      return HttpReply.json(row === null ? "null" : load<u32>(row.dataStart + 2).toString());
    }
    if (path == "/fail" && request.method == "GET") {
      checkoutSubjective();
      const handle = openTable(HandleDb.subjective, service, 0, KvMode.read);
      const row = kvGetAt(handle, EMPTY_KEY);
      kvClose(handle);
      commitSubjective();
      return HttpReply.json(row !== null ? "true" : "false");
    }
    if (path == "/fail" && (request.method == "POST" || request.method == "DELETE")) {
      checkoutSubjective();
      const handle = openTable(HandleDb.subjective, service, 0, KvMode.write);
      if (request.method == "POST") kvPut(handle, EMPTY_KEY.dataStart, 0, FAIL_ROW.dataStart, FAIL_ROW.length);
      else kvRemove(handle, EMPTY_KEY.dataStart, 0);
      kvClose(handle);
      commitSubjective();
      return HttpReply.json("true");
    }
    return null;
  }
}
