import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { TransactionTrace } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { ReplayedBlock } from './received-block.js';

// Transactions a node that does not produce has passed on to the producers (docs/p2p.md, "What
// we build" 4): each waits until a block that holds it is committed here, and is answered with
// the trace the block's execution gave it: at once (`applied`), or once that block is
// irreversible here (`final`). One that no block has taken when it expires is answered with an
// error saying so.
//
// Passing a transaction on is not a promise that a block will hold it: the leader it reached may
// die, or lose its block to another fork, and producers that do not lead drop what they receive.
// So a waiting transaction is passed on again while it waits: when another leader's term shows in
// the chain, when the block that held it is reverted, and every `retryMs` in any case (a producer
// refuses a duplicate of one it already holds).

/** Passes a packed transaction on to the producers; false when none is reachable now. */
export type Forwarder = (packed: Uint8Array) => boolean;

interface Waiting {
  readonly packed: Uint8Array;
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
  private retry: NodeJS.Timeout | undefined;
  /** The newest term among the blocks received: a newer one means another leader. */
  private term = 0;

  constructor(private readonly forwarder: Forwarder, private readonly retryMs: number) {}

  /**
   * Passes `packed` (transaction `id`) on to the producers and waits for it to be in a committed
   * block, `expiresInMs` at most (after that no block can hold it). Undefined when no producer is
   * reachable to pass it on to.
   */
  forward(id: Uint8Array, packed: Uint8Array, waitFor: 'applied' | 'final', expiresInMs: number): Promise<TransactionTrace> | undefined {
    if (!this.forwarder(packed)) return undefined;
    const key = bytesToHex(id);
    return new Promise((resolve) => this.await(key, { packed, waitFor, resolve, expiresAt: Date.now() + expiresInMs }));
  }

  /** Passes every waiting transaction on again. */
  private resendAll(): void {
    for (const waiting of this.waiting.values()) this.forwarder(waiting.packed);
  }

  private await(key: string, waiting: Waiting): void {
    waiting.expiry = setTimeout(() => {
      this.waiting.delete(key);
      waiting.resolve({ actionTraces: [], error: `transaction ${key} expired before a block included it: no producer took it` });
    }, Math.max(0, waiting.expiresAt - Date.now()));
    waiting.expiry.unref();
    this.waiting.set(key, waiting);
    this.retry ??= setInterval(() => {
      if (this.waiting.size === 0) {
        clearInterval(this.retry);
        this.retry = undefined;
      } else {
        this.resendAll();
      }
    }, this.retryMs).unref();
  }

  /**
   * A received block was committed: waiters for its transactions are answered now (`applied`) or
   * returned to be answered when it is irreversible (`final`). A block of a newer term than before
   * has another leader, which may not have what the last one had: the rest are passed on again.
   */
  included(replayed: ReplayedBlock): FinalWaiter[] {
    const later = this.waiting.size === 0 ? [] : this.answer(replayed);
    const { term } = replayed.block.header;
    if (term > this.term) {
      if (this.term !== 0) this.resendAll();
      this.term = term;
    }
    return later;
  }

  /** Takes the waiters of the block's transactions: answered now, or returned to wait for finality. */
  private answer({ block, traces }: ReplayedBlock): FinalWaiter[] {
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
        reverted: () => {
          this.await(key, waiter);
          this.forwarder(waiter.packed);
        },
        reject: (err) => waiter.resolve({ actionTraces: [], error: err.message }),
      });
    });
    return later;
  }
}
