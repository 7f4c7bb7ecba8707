// Test service deployed under several accounts: it reports who called it, calls transact::runAs
// for its sender, looks at the executing transaction, and fails on request.

import { AccountNumber, Action, abort, getSender } from "../../../../../services-wasm/sdk/index";
import { TransactActor } from "../../../../../services-wasm/transact/index";
import { ServiceMethod } from "../../../../../services-wasm/sdk/auth/index";
import { Transaction } from "../../../../../services-wasm/transact/transaction";

@service("runner")
class Runner {
  /** Reports the sender it ran for. */
  @action
  record(): void {
    this.recorded(getSender());
  }

  @action
  runAs(action: Action, allowedActions: Array<ServiceMethod>): Uint8Array {
    return new TransactActor().runAs(action, allowedActions);
  }

  /** Reports the transaction transact is applying. */
  @action
  inspect(): void {
    const transact = new TransactActor();
    this.inspected(transact.isTransaction(), transact.getTransaction());
  }

  @action
  isTransaction(): bool {
    return new TransactActor().isTransaction();
  }

  @action
  fail(): void {
    abort("runner fails on request");
  }

  @event("history")
  recorded(sender: AccountNumber): void {}

  @event("history")
  inspected(isTransaction: bool, transaction: Transaction): void {}
}
