// The accounts that have a row in the native code table: the services deployed at genesis
// (and any code written before accounts was initialized).

import { AccountNumber, DbId, kv, unpack } from "../sdk/index";
import { successor } from "../sdk/tables/cursor";
import { CodeRow, NativeTable, NATIVE_PREFIX_LENGTH, nativeTablePrefix } from "../sdk/native/index";

export function codeAccounts(): Array<AccountNumber> {
  const out = new Array<AccountNumber>();
  let entry = kv.greaterEqual(DbId.native, nativeTablePrefix(NativeTable.code), NATIVE_PREFIX_LENGTH);
  while (entry !== null) {
    out.push(unpack<CodeRow>(entry.value).codeNum);
    entry = kv.greaterEqual(DbId.native, successor(entry.key), NATIVE_PREFIX_LENGTH);
  }
  return out;
}
