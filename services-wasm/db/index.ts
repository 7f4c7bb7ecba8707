// db: opens the chain's databases for services written for psibase's handle ABI (docs/host-abi.md
// §12.6). Opening a database is privileged, so a service asks db, which checks whose keys they are
// and hands the handle back across the return (exportHandles). The rules are psibase's: a service
// writes only under its own account, reads under its primary account (so subaccounts share what
// they read), reads the native tables (writes them only when privileged) and reads the block log.

import { AccountNumber, check, getSender } from "../sdk/index";
import { HandleDb, exportHandles, isReadMode, isWriteMode, kvClose, kvOpen } from "../sdk/handles/index";
import { isPrivilegedAccount, prefixStartsWith, refuseDb, refusePrefix } from "../sdk/handles/open-rules";

/** A primary account's first 7 bytes: the subaccount byte is the last one. */
const PRIMARY_BYTES = 7;
const ACCOUNT_BYTES = 8;

function checkServicePrefix(sender: AccountNumber, prefix: Uint8Array, mode: u8): void {
  if (isWriteMode(mode)) {
    if (!prefixStartsWith(prefix, sender, ACCOUNT_BYTES)) refusePrefix(sender, prefix, "write");
  } else if (!prefixStartsWith(prefix, sender, PRIMARY_BYTES)) {
    refusePrefix(sender, prefix, "read");
  }
}

@service("db")
export class Db {
  /**
   * Opens `db` under `prefix` for the sender with `mode` (1 read, 2 write, 3 both); returns the
   * handle's index (0) in the list it exports with the return.
   */
  @action
  open(db: u32, prefix: Uint8Array, mode: u8): u32 {
    check(isReadMode(mode) || isWriteMode(mode), "mode must be read (1), write (2) or readWrite (3)");
    const sender = getSender();
    if (db == HandleDb.service || db == HandleDb.writeOnly) {
      checkServicePrefix(sender, prefix, mode);
    } else if (db == HandleDb.native) {
      if (isWriteMode(mode) && !isPrivilegedAccount(sender)) refuseDb(sender, db, "write");
    } else if (db == HandleDb.blockLog) {
      if (isWriteMode(mode)) refuseDb(sender, db, "write");
    } else {
      refuseDb(sender, db, "open");
    }
    const handle = kvOpen(db, prefix, mode);
    exportHandles([handle]);
    kvClose(handle);
    return 0;
  }
}
