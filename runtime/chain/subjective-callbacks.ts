import { DbId } from '../../host-api/abi/databases.js';
import { notifyKey } from '../../host-api/abi/keys.js';
import { NO_ARGUMENTS, type TransactionTrace } from '../../host-api/types/index.js';
import { NotifyRow, TransactionCallbackArgs } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Executor } from '../wasm/executor.js';
import type { SocketRegistry } from '../wasm/host-state.js';

/** Notify row types: subjective callbacks the node runs in callback mode. */
const NotifyType = { acceptTransaction: 0, acceptBlock: 1 } as const;
const NOTIFY_KEYS = [notifyKey(NotifyType.acceptTransaction), notifyKey(NotifyType.acceptBlock)];

/**
 * The subjective callbacks services register in the notify table (acceptTransaction after each
 * pushed transaction, acceptBlock after each committed block), run in callback mode; they never
 * affect consensus, so their errors are only reported.
 */
export class SubjectiveCallbacks {
  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    /** Open HTTP requests, which callbacks may answer (deferred replies). */
    private readonly sockets: SocketRegistry | undefined,
    private readonly onError: ((error: Error) => void) | undefined,
  ) {}

  /** A pushed transaction was applied (or failed) with `trace`. */
  acceptTransaction(id: Uint8Array, trace: TransactionTrace): void {
    this.notify(NotifyType.acceptTransaction, () => TransactionCallbackArgs.pack({ id, trace }));
  }

  /** A block was committed. */
  acceptBlock(): void {
    this.notify(NotifyType.acceptBlock, () => NO_ARGUMENTS);
  }

  /** Runs the callbacks of a notify row; their argument is built only when there are callbacks. */
  private notify(type: number, args: () => Uint8Array): void {
    const row = this.store.get(DbId.native, NOTIFY_KEYS[type]!);
    if (!row) return;
    const rawData = args();
    const sockets = this.sockets;
    for (const action of NotifyRow.unpack(row).actions) {
      // A callback that fails applies none of its writes (its writeOnly rows); the others still run.
      const checkpoint = this.store.checkpoint();
      const result = this.executor.run({ mode: 'callback', target: { action: { ...action, rawData } }, sockets: sockets && { open: sockets } });
      if (result.error) this.store.rollback(checkpoint);
      else this.store.release(checkpoint);
      // A request the callback took over and left unanswered gets its error, as a failed serveSys's does.
      if (result.sockets) sockets!.settle(result.sockets, result.error?.message);
      if (result.error) this.onError?.(result.error);
    }
  }
}
