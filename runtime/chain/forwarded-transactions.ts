import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { TransactionTrace } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { ReplayedBlock } from './received-block.js';

// Transactions a node that does not produce has passed on to the producers (docs/p2p.md, "What
// we build" 4): each waits until a block that holds it is committed here, and is answered with
// the trace the block's execution gave it: at once (`applied`), or once that block is
// irreversible here (`final`). One that no block has taken when it expires is answered with an
// error saying so.

interface Waiting {
  readonly waitFor: 'applied' | 'final';
  readonly resolve: (trace: TransactionTrace) => void;
  /** When no block can hold the transaction any more (ms since the epoch). */
  readonly expiresAt: number;
  expiry?: NodeJS.Timeout;
}

/**
 * A push answered once block `blockNum` is irreversible (the chain keeps these), or refused when
 * that block is aborted instead of committed.
 */
export interface FinalWaiter {
  readonly blockNum: number;
  readonly resolve: () => void;
  /** Block `blockNum` was reverted: wait again for a block holding the transaction. */
  readonly reverted: () => void;
  readonly reject: (err: Error) => void;
}

export class ForwardedTransactions {
  private readonly waiting = new Map<string, Waiting>();

  /**
   * Waits for transaction `id` to be in a committed block; `expiresInMs` after which no block
   * can hold it any more.
   */
  wait(id: Uint8Array, waitFor: 'applied' | 'final', expiresInMs: number): Promise<TransactionTrace> {
    const key = bytesToHex(id);
    return new Promise((resolve) => this.await(key, { waitFor, resolve, expiresAt: Date.now() + expiresInMs }));
  }

  private await(key: string, waiting: Waiting): void {
    waiting.expiry = setTimeout(() => {
      this.waiting.delete(key);
      waiting.resolve({ actionTraces: [], error: `transaction ${key} expired before a block included it: no producer took it` });
    }, Math.max(0, waiting.expiresAt - Date.now()));
    waiting.expiry.unref();
    this.waiting.set(key, waiting);
  }

  /**
   * A received block was committed: waiters for its transactions are answered now (`applied`) or
   * returned to be answered when it is irreversible (`final`).
   */
  included({ block, traces }: ReplayedBlock): FinalWaiter[] {
    if (this.waiting.size === 0) return [];
    const later: FinalWaiter[] = [];
    block.transactions.forEach((t, i) => {
      const key = bytesToHex(sha256(t.transaction));
      const waiter = this.waiting.get(key);
      if (!waiter) return;
      this.waiting.delete(key);
      clearTimeout(waiter.expiry);
      const trace = traces[i]!;
      if (waiter.waitFor === 'applied') waiter.resolve(trace);
      else later.push({
        blockNum: block.header.blockNum,
        resolve: () => waiter.resolve(trace),
        reverted: () => this.await(key, waiter),
        reject: (err) => waiter.resolve({ actionTraces: [], error: err.message }),
      });
    });
    return later;
  }
}
