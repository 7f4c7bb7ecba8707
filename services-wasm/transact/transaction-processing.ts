// Applying a transaction (chain.md §5): the checks before any action runs, then each action
// authorized (after finishBoot) and called with its own sender, then the bookkeeping and hooks.
// processTransaction, execTrx and checkFirstAuth share these steps.

import { Checksum256, check } from "../sdk/index";
import { firstAuthFlag, readOnlyFlag, topActionReq } from "../sdk/auth/index";
import { requireTopActionAuth } from "./auth";
import { acceptBootTransaction, bootListActive, enforcesAuth } from "./boot";
import { callAs } from "./call";
import { runTransactionCallbacks } from "./callbacks";
import { checkNotDuplicate, recordIncluded } from "./duplicates";
import { syncEventIndexes } from "./event-indexes";
import { checkFlagsAndExpiration, checkReferencedBlock } from "./tapos";
import { Transaction } from "./transaction";

/** The transaction being applied (getTransaction); null outside transactions. */
let executing: Transaction | null = null;

export function executingTransaction(): Transaction | null {
  return executing;
}

/**
 * Everything checked before an action runs. `speculative` runs (never committed) may carry
 * do_not_broadcast and need only be listed in the boot list, which they leave unchanged.
 */
function checkTransaction(trx: Transaction, id: Checksum256, speculative: bool): void {
  check(trx.actions.length > 0, "transaction has no actions");
  checkNotDuplicate(trx.tapos.expiration, id);
  checkFlagsAndExpiration(trx.tapos, speculative);
  const booting = bootListActive();
  checkReferencedBlock(trx.tapos, booting);
  if (booting) acceptBootTransaction(id, speculative);
}

export function applyTransaction(trx: Transaction, id: Checksum256, speculative: bool): void {
  checkTransaction(trx, id, speculative);
  const outer = executing;
  executing = trx;
  // Read once: the finishBoot transaction itself still runs unauthorized.
  const authorize = enforcesAuth();
  for (let i = 0; i < trx.actions.length; i++) {
    const action = trx.actions[i];
    if (authorize) requireTopActionAuth(action, i == 0 ? topActionReq | firstAuthFlag : topActionReq, trx.claims);
    callAs(action);
  }
  recordIncluded(trx.tapos.expiration, id);
  runTransactionCallbacks();
  syncEventIndexes();
  executing = outer;
}

/**
 * The pre-queue check: the transaction's checks and its first sender's auth in read-only mode
 * (chain.md §5 flags 0x80000001), without running anything or changing state.
 */
export function checkFirstAuth(trx: Transaction, id: Checksum256): bool {
  checkTransaction(trx, id, true);
  if (enforcesAuth()) requireTopActionAuth(trx.actions[0], readOnlyFlag | topActionReq, trx.claims);
  return true;
}
