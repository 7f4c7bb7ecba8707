// transact: every transaction enters the chain here (docs/system-services.md, docs/administration.md §4.3,
// docs/chain.md §2, §4, §5, §8). This file holds the entry points: the host-called
// processTransaction export and the actions; each concern lives in its own file.

import {
  AccountNumber, Action, Checksum256, TimePointUSec,
  check, currentAction, getSender, getService, pack, sha256, unpack,
} from "../sdk/index";
import { ServiceMethod } from "../sdk/auth/index";
import { BlockHeader, getStatus } from "../sdk/native/index";
import { finishBoot, startBoot } from "./boot";
import { addCallback, removeCallback, runBlockCallbacks } from "./callbacks";
import { pruneExpired } from "./duplicates";
import { registerEventIndex, startEventIndexBlock } from "./event-indexes";
import { setResourceMonitoring } from "./resource-monitoring";
import { runAs } from "./run-as";
import { scheduleSnapshot, setSnapshotInterval } from "./snapshot";
import { recordHeadBlock } from "./tapos";
import { applyTransaction, checkFirstAuth, executingTransaction } from "./transaction-processing";
import { Transaction } from "./transaction";
import { ProcessTransactionArgs } from "./process-transaction-args";

/** onTransaction 0, onBlock 1. */
type CallbackType = u8;

/** Host export: applies the transaction in the current action's rawData. */
export function processTransaction(): void {
  const args = unpack<ProcessTransactionArgs>(currentAction().rawData, true);
  const trx = unpack<Transaction>(args.transaction, true, "transaction has invalid format");
  applyTransaction(trx, args.id, args.speculative);
}

function requireTransactSender(): void {
  check(getSender() == getService(), "sender must be transact");
}

@service("transact")
export class Transact {
  /** From now on only these transactions are accepted, in order, until finishBoot. */
  @action
  startBoot(bootTransactions: Array<Checksum256>): void {
    startBoot(bootTransactions);
  }

  /** Ends the boot: auth checking on, default native configuration written. */
  @action
  finishBoot(): void {
    finishBoot();
  }

  /** Run by the node before each block's transactions (sender 0). */
  @action
  startBlock(): void {
    check(getSender() == 0, "only native code may call startBlock");
    startEventIndexBlock();
    const status = getStatus();
    const head = status.head;
    if (head !== null) recordHeadBlock(head);
    pruneExpired(status.current.time);
    this.blockStart(status.current.blockNum, status.current.time);
    scheduleSnapshot(status);
  }

  /**
   * Run by the node after each block's transactions, before the block's header is derived (sender
   * 0): the objective onBlock callbacks, whose failure aborts the block.
   */
  @action
  endBlock(): void {
    check(getSender() == 0, "only native code may call endBlock");
    runBlockCallbacks();
  }

  /**
   * Applies `trx` like processTransaction, without proofs (so only the node or transact itself
   * may ask); its id is the sha256 of its packing.
   */
  @action
  execTrx(trx: Transaction, speculative: bool): void {
    const sender = getSender();
    check(sender == 0 || sender == getService(), "only native code or transact may call execTrx");
    applyTransaction(trx, sha256(pack<Transaction>(trx)), speculative);
  }

  /** Seconds of block time between scheduled snapshots; 0 disables them. */
  @action
  setSnapTime(seconds: u32): void {
    requireTransactSender();
    setSnapshotInterval(seconds);
  }

  @action
  addCallback(type: CallbackType, objective: bool, act: Action): void {
    requireTransactSender();
    addCallback(type, objective, act);
  }

  @action
  removeCallback(type: CallbackType, objective: bool, act: Action): void {
    requireTransactSender();
    removeCallback(type, objective, act);
  }

  /**
   * Registers the event index service (replacing the one before): its startBlock() runs at the
   * start of every block, its sync() at the end of every transaction.
   */
  @action
  regEvIdx(service: AccountNumber): void {
    requireTransactSender();
    registerEventIndex(service);
  }

  /** Runs `action` as its sender, if the permission rules allow; returns its return value. */
  @action
  runAs(action: Action, allowedActions: Array<ServiceMethod>): Uint8Array {
    return runAs(action, allowedActions);
  }

  /** Whether the first sender's auth service accepts `transaction` (false when it answers false). */
  @action
  checkFirstAuth(id: Checksum256, transaction: Transaction): bool {
    return checkFirstAuth(transaction, id);
  }

  @action
  resMonitoring(enable: bool): void {
    requireTransactSender();
    setResourceMonitoring(enable);
  }

  @action
  getTransaction(): Transaction {
    const trx = executingTransaction();
    check(trx !== null, "no transaction is executing");
    return trx!;
  }

  @action
  isTransaction(): bool {
    return executingTransaction() !== null;
  }

  /** The block being built. */
  @action
  currentBlock(): BlockHeader {
    return getStatus().current;
  }

  /** The last completed block. */
  @action
  headBlock(): BlockHeader {
    const head = getStatus().head;
    check(head !== null, "head does not exist yet");
    return head!.header;
  }

  /** The head block's time, 0 before a head exists. */
  @action
  headBlockTime(): TimePointUSec {
    const head = getStatus().head;
    return head !== null ? head.header.time : 0;
  }

  @event("history")
  blockStart(blockNum: u32, blockTime: TimePointUSec): void {}
}
