import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { TransactionTrace } from '../../host-api/types/index.js';
import { ChainError } from './errors.js';
import type { ReplayedBlock } from './received-block.js';

// Transactions a node that does not produce has passed on to the producers (docs/p2p.md, "What
// we build" 4): each waits until a block that holds it is committed here, and is answered with
// the trace the block's execution gave it: at once (`applied`), or once that block is
// irreversible here (`final`). One that no block has taken when it expires is answered with an
// error saying so.
//
// Passing a transaction on is not a promise that a block will hold it: the leader it reached may
// die, or lose its block to another fork (the other producers hold what they receive for when
// they lead, held-transactions.ts, but a producer that was unreachable then has none of it). So a
// waiting transaction is passed on again while it waits: when another leader's term shows in the
// chain, when the block that held it is reverted, and every `retryMs` in any case (a producer
// refuses a duplicate of one it already holds). When this node itself is elected, it takes its
// waiting transactions into its own blocks (`takeAll`).

/** Passes a packed transaction on to the producers; false when none is reachable now. */
export type Forwarder = (packed: Uint8Array) => boolean;

export interface Waiting {
  readonly packed: Uint8Array;
  readonly waitFor: 'applied' | 'final';
  readonly resolve: (trace: TransactionTrace) => void;
  /** No producer was reachable to pass it on to (CHAIN_NO_PRODUCER). */
  readonly reject: (err: Error) => void;
  /** When no block can hold the transaction any more (ms since the epoch). */
  readonly expiresAt: number;
  expiry?: NodeJS.Timeout;
  /** While no route has taken it: the time left to find one. */
  unrouted?: NodeJS.Timeout;
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

  /** `retryMs`: how often a waiting transaction is passed on again, and how long one waits for a first route. */
  constructor(private readonly forwarder: Forwarder, private readonly retryMs: number) {}

  /**
   * Passes `packed` (transaction `id`) on to the producers and waits for it to be in a committed
   * block, `expiresInMs` at most (after that no block can hold it). When no producer is reachable
   * now (a node just started, whose links are not up yet), it waits for a route `retryMs` at most,
   * then rejects with CHAIN_NO_PRODUCER.
   */
  forward(id: Uint8Array, packed: Uint8Array, waitFor: 'applied' | 'final', expiresInMs: number): Promise<TransactionTrace> {
    const key = bytesToHex(id);
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { packed, waitFor, resolve, reject, expiresAt: Date.now() + expiresInMs };
      this.await(key, waiting);
      if (this.forwarder(packed)) return;
      waiting.unrouted = setTimeout(() => {
        this.settle(key, waiting);
        reject(new ChainError('CHAIN_NO_PRODUCER', `this node does not produce blocks, and no producer was reachable through its peers within ${this.retryMs} ms to pass the transaction on to`));
      }, this.retryMs);
      waiting.unrouted.unref();
    });
  }

  /** Takes every waiting transaction out, to be answered by the caller (this node leads now). */
  takeAll(): Waiting[] {
    const all = [...this.waiting.entries()];
    for (const [key, waiting] of all) this.settle(key, waiting);
    return all.map(([, waiting]) => waiting);
  }

  /**
   * A producer is reachable that was not (a link came back, a producer restarted): every waiting
   * transaction is passed on at once, to reach whoever leads now.
   */
  routesChanged(): void {
    this.resendAll();
  }

  /** Passes every waiting transaction on again. */
  private resendAll(): void {
    for (const waiting of this.waiting.values()) {
      if (this.forwarder(waiting.packed) && waiting.unrouted) {
        clearTimeout(waiting.unrouted);
        waiting.unrouted = undefined;
      }
    }
  }

  /** The transaction waits no more: its timers stop. */
  private settle(key: string, waiting: Waiting): void {
    this.waiting.delete(key);
    clearTimeout(waiting.expiry);
    clearTimeout(waiting.unrouted);
    waiting.unrouted = undefined;
  }

  private await(key: string, waiting: Waiting): void {
    waiting.expiry = setTimeout(() => {
      this.settle(key, waiting);
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
  included(replayed: ReplayedBlock, ids: () => readonly string[]): FinalWaiter[] {
    const later = this.waiting.size === 0 ? [] : this.answer(replayed, ids());
    const { term } = replayed.block.header;
    if (term > this.term) {
      if (this.term !== 0) this.resendAll();
      this.term = term;
    }
    return later;
  }

  /** Takes the waiters of the block's transactions: answered now, or returned to wait for finality. */
  private answer({ block, traces }: ReplayedBlock, ids: readonly string[]): FinalWaiter[] {
    const later: FinalWaiter[] = [];
    ids.forEach((key, i) => {
      const waiter = this.waiting.get(key);
      if (!waiter) return;
      this.settle(key, waiter);
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
