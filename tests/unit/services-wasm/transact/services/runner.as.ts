// Test service deployed under several accounts: it reports who called it, calls transact::runAs
// for its sender, looks at the executing transaction, fails on request, and can stand in as an
// auth service that vouches for anyone (canAuthUserSys) and answers checkAuthSys with a bool (true
// until told to deny), or as an event index (sync, startBlock).

import { AccountNumber, Action, Table, abort, getSender } from "../../../../../services-wasm/sdk/index";
import { TransactActor } from "../../../../../services-wasm/transact/index";
import { Claim, ServiceMethod } from "../../../../../services-wasm/sdk/auth/index";
import { Transaction } from "../../../../../services-wasm/transact/transaction";

/** Present once denyAuth ran. */
@fracpack
class Denying {
  constructor(public key: u8 = 0) {}
}

const denying = new Table<Denying, u8>(1, (row: Denying): u8 => row.key);

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

  /** As an event index: reports the sender (transact). */
  @action
  sync(): void {
    this.recorded(getSender());
  }

  /** As an event index, when a block starts: reports the sender (transact). */
  @action
  startBlock(): void {
    this.recorded(getSender());
  }

  /** As an auth service: any account may choose it. */
  @action
  canAuthUserSys(user: AccountNumber): void {}

  /** As an auth service with newer psibase's interface: answers true, or false once told to deny. */
  @action
  checkAuthSys(
    flags: u32, requester: AccountNumber, sender: AccountNumber, action: ServiceMethod,
    allowedActions: Array<ServiceMethod>, claims: Array<Claim>,
  ): bool {
    return denying.get(0) === null;
  }

  @action
  denyAuth(): void {
    denying.put(new Denying());
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
