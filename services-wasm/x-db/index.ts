// x-db: opens the node-local databases (subjective, session, temporary; native for reading) for
// services written for psibase's handle ABI (docs/host-abi.md §12.6), as db does for the chain's.
// A service reads only under its own account; writing needs a privileged service, since tsibase
// has no node-local services (psibase also lets those write); nativeSubjective is the node's.

import { AccountNumber, check, getSender } from "../sdk/index";
import { HandleDb, exportHandles, isReadMode, isWriteMode, kvClose, kvOpen } from "../sdk/handles/index";
import { isPrivilegedAccount, prefixStartsWith, refuseDb, refusePrefix } from "../sdk/handles/open-rules";

const ACCOUNT_BYTES = 8;

function isNodeLocal(db: u32): bool {
  return db == HandleDb.subjective || db == HandleDb.session || db == HandleDb.temporary;
}

@service("x-db")
export class XDb {
  /** Opens `db` under `prefix` for the sender with `mode`; returns the handle's index (0) in the list it exports. */
  @action
  open(db: u32, prefix: Uint8Array, mode: u8): u32 {
    check(isReadMode(mode) || isWriteMode(mode), "mode must be read (1), write (2) or readWrite (3)");
    const sender = getSender();
    if (isNodeLocal(db)) {
      if (!prefixStartsWith(prefix, sender, ACCOUNT_BYTES)) refusePrefix(sender, prefix, isWriteMode(mode) ? "write" : "read");
      if (isWriteMode(mode) && !isPrivilegedAccount(sender)) refuseDb(sender, db, "write", "only privileged services write node-local databases");
    } else if (db == HandleDb.native) {
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
