// Where an index's entries live: a database and the prefix that every key of one index starts
// with (iteration stays inside it). Service table keys are owner account (8 bytes, big-endian),
// table number (u16, big-endian), index number (u8: 0 primary, 1.. secondary), encoded key
// (docs/host-abi.md §8). Some host databases have no prefix at all: the block log's keys are
// the block numbers alone (docs/chain.md §1.4).

import { AccountNumber } from "../names/types";
import { Writer } from "../fracpack/writer";
import { writeKey } from "../fracpack/key";
import { getService } from "../service/context";
import { DbId } from "./db";

/** The length of owner + table + index; iteration stays inside it. */
const PREFIX_LENGTH: u32 = 11;

export abstract class KeyLocation {
  /** `prefixLength`: the bytes every key of one index shares. */
  constructor(readonly db: DbId, readonly prefixLength: u32) {}

  /** The full key of entry `key` in index `index`. */
  key<K>(index: u8, key: K): Uint8Array {
    const w = new Writer(32);
    this.writePrefix(w, index);
    writeKey<K>(w, key);
    return w.finish();
  }

  prefix(index: u8): Uint8Array {
    const w = new Writer(32);
    this.writePrefix(w, index);
    return w.finish();
  }

  protected abstract writePrefix(w: Writer, index: u8): void;
}

/** A service table's indexes. */
export class TableLocation extends KeyLocation {
  /** `owner` 0 stands for the running service. */
  constructor(db: DbId, readonly owner: AccountNumber, readonly table: u16) {
    super(db, PREFIX_LENGTH);
  }

  protected writePrefix(w: Writer, index: u8): void {
    w.u64BE(this.owner != 0 ? this.owner : getService());
    w.u16BE(this.table);
    w.u8(index);
  }
}

/** A whole database as one index, its keys without a prefix (the block log); the index number is 0. */
export class WholeDbLocation extends KeyLocation {
  constructor(db: DbId) {
    super(db, 0);
  }

  protected writePrefix(w: Writer, index: u8): void {}
}
