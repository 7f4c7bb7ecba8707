// What db::open and x-db::open check before they open a database for a service (docs/host-abi.md
// §12.6): whose key prefix it is, and whether the sender is privileged.

import { AccountNumber } from "../names/types";
import { accountName } from "../names/account";
import { abort } from "../abort";
import { CodeRow } from "../native/code";
import { codeKey } from "../native/keys";
import { unpack } from "../fracpack/codec";
import { HandleDb, KvMode, kvClose, kvGetAt, kvOpen } from "./index";

const isPrivilegedFlag: u64 = 1;

/** Whether `account`'s code is flagged privileged (read from the native code table). */
export function isPrivilegedAccount(account: AccountNumber): bool {
  const native = kvOpen(HandleDb.native, new Uint8Array(0), KvMode.read);
  const row = kvGetAt(native, codeKey(account));
  kvClose(native);
  return row !== null && (unpack<CodeRow>(row).flags & isPrivilegedFlag) != 0;
}

/** Whether `prefix` starts with the first `bytes` bytes of `account` (big-endian, as keys hold it). */
export function prefixStartsWith(prefix: Uint8Array, account: AccountNumber, bytes: i32): bool {
  if (prefix.length < bytes) return false;
  for (let i = 0; i < bytes; i++) {
    if (prefix[i] != <u8>(account >> (<u64>(56 - 8 * i)))) return false;
  }
  return true;
}

/** Who a prefix belongs to, for messages: its account and, when present, its table number. */
function prefixOwner(prefix: Uint8Array): string {
  if (prefix.length < 8) return "a prefix of " + prefix.length.toString() + " bytes";
  let owner: u64 = 0;
  for (let i = 0; i < 8; i++) owner = (owner << 8) | <u64>prefix[i];
  let text = accountName(owner);
  if (prefix.length >= 10) text += ":" + ((<u32>prefix[8] << 8) | <u32>prefix[9]).toString();
  return text;
}

/** Aborts: `sender` may not `verb` the keys under `prefix`. */
export function refusePrefix(sender: AccountNumber, prefix: Uint8Array, verb: string): void {
  abort(accountName(sender) + " may not " + verb + " keys under " + prefixOwner(prefix) + ": a service " + verb + "s only its own");
}

/** Aborts: `sender` may not `verb` database `db` (`why`, when given, says why not). */
export function refuseDb(sender: AccountNumber, db: u32, verb: string, why: string = ""): void {
  abort(accountName(sender) + " may not " + verb + " database " + db.toString() + (why.length > 0 ? ": " + why : ""));
}
