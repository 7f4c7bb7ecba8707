// Where a table's rows live: service table keys are owner account (8 bytes, big-endian), table
// number (u16, big-endian), index number (u8: 0 primary, 1.. secondary), encoded key
// (docs/host-abi.md §8).

import { AccountNumber } from "../names/types";
import { Writer } from "../fracpack/writer";
import { writeKey } from "../fracpack/key";
import { getService } from "../service/context";
import { DbId } from "./db";

/** The length of owner + table + index; iteration stays inside it. */
export const PREFIX_LENGTH: u32 = 11;

export class TableLocation {
  /** `owner` 0 stands for the running service. */
  constructor(readonly db: DbId, readonly owner: AccountNumber, readonly table: u16) {}

  /** The full key of entry `key` in index `index`. */
  key<K>(index: u8, key: K): Uint8Array {
    const w = this.prefixWriter(index);
    writeKey<K>(w, key);
    return w.finish();
  }

  prefix(index: u8): Uint8Array {
    return this.prefixWriter(index).finish();
  }

  private prefixWriter(index: u8): Writer {
    const w = new Writer(32);
    w.u64BE(this.owner != 0 ? this.owner : getService());
    w.u16BE(this.table);
    w.u8(index);
    return w;
  }
}
