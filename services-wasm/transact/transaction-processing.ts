// Applying a transaction (docs/chain.md §5): the checks before any action runs, then each action
// authorized (after finishBoot) and called with its own sender, then the bookkeeping and hooks.
// processTransaction, execTrx and checkFirstAuth share these steps.

import { Checksum256, callActionAs, check } from "../sdk/index";
import { firstAuthFlag, readOnlyFlag, topActionReq } from "../sdk/auth/index";
import { getStatus } from "../sdk/native/index";
import { authServiceOf, isAuthorized, requireTopActionAuth } from "./auth";
import { acceptBootTransaction, authOn, bootListActive, transactStatus } from "./boot";
import { runTransactionCallbacks } from "./callbacks";
import { checkNotDuplicate, recordIncluded } from "./duplicates";
import { syncEventIndex } from "./event-indexes";
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
 * Returns whether the actions are to be authorized; read once, so the finishBoot transaction
 * itself still runs unauthorized.
 */
function checkTransaction(trx: Transaction, id: Checksum256, speculative: bool): bool {
  check(trx.actions.length > 0, "transaction has no actions");
  checkNotDuplicate(trx.tapos.expiration, id);
  const chain = getStatus();
  checkFlagsAndExpiration(trx.tapos, speculative, chain.current.time);
  const status = transactStatus();
  const booting = bootListActive(status);
  checkReferencedBlock(trx.tapos, booting, chain.head);
  if (booting) acceptBootTransaction(status!, id, speculative);
  return authOn(status);
}

export function applyTransaction(trx: Transaction, id: Checksum256, speculative: bool): void {
  const authorize = checkTransaction(trx, id, speculative);
  const outer = executing;
  executing = trx;
  for (let i = 0; i < trx.actions.length; i++) {
    const action = trx.actions[i];
    if (authorize) requireTopActionAuth(action, i == 0 ? topActionReq | firstAuthFlag : topActionReq, trx.claims);
    callActionAs(action);
  }
  recordIncluded(trx.tapos.expiration, id);
  runTransactionCallbacks();
  syncEventIndex();
  executing = outer;
}

/**
 * The pre-queue check: the transaction's checks (which abort, as in a transaction), then whether
 * its first sender's auth service approves in read-only mode (docs/chain.md §5 flags
 * 0x80000001): false when it answers false, an abort when it aborts. Before finishBoot nothing is
 * authorized, so nothing is refused. Runs nothing and changes no state.
 */
export function checkFirstAuth(trx: Transaction, id: Checksum256): bool {
  if (!checkTransaction(trx, id, true)) return true;
  const first = trx.actions[0];
  return isAuthorized(authServiceOf(first.sender), readOnlyFlag | topActionReq, 0, first, [], trx.claims);
}
