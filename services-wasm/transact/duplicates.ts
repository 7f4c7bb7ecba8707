// Duplicate detection (docs/chain.md §2): every applied transaction leaves an (expiration, id) row
// until it expires; startBlock prunes a bounded number of expired rows per block.

import { Checksum256, TimePointSec, TimePointUSec, Table, check } from "../sdk/index";
import { expiredAt } from "./tapos";
import { INCLUDED_TRANSACTIONS_TABLE } from "./tables";

/** At most this many expired rows are dropped per block, so startBlock's work stays bounded. */
const PRUNE_LIMIT = 20;

@struct
class IncludedTransaction {
  constructor(public expiration: TimePointSec = 0, public id: Checksum256 = new Checksum256()) {}
}

/** Rows are their own key: ordered by expiration, so the oldest come first. */
const included = new Table<IncludedTransaction, IncludedTransaction>(
  INCLUDED_TRANSACTIONS_TABLE,
  (row: IncludedTransaction): IncludedTransaction => row,
);

export function checkNotDuplicate(expiration: TimePointSec, id: Checksum256): void {
  check(included.get(new IncludedTransaction(expiration, id)) === null, "duplicate transaction");
}

export function recordIncluded(expiration: TimePointSec, id: Checksum256): void {
  included.put(new IncludedTransaction(expiration, id));
}

/** Drops up to PRUNE_LIMIT rows that expired at or before `now`, oldest first. */
export function pruneExpired(now: TimePointUSec): void {
  const expired = new Array<IncludedTransaction>();
  for (const c = included.primary.first(); c.valid && expired.length < PRUNE_LIMIT; c.next()) {
    const row = c.row();
    if (!expiredAt(row.expiration, now)) break;
    expired.push(row);
  }
  for (let i = 0; i < expired.length; i++) included.remove(expired[i]);
}
