import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { TransactionTrace } from '../../host-api/types/index.js';
import type { Store } from '../db/store.js';
import type { Executor } from '../wasm/executor.js';
import { BlockBuilder } from './block-builder.js';
import type { BlockProduction } from './block-production.js';
import { sha256 } from '../crypto/sha256.js';
import { ChainError } from './errors.js';
import type { Finality } from './finality.js';
import { ForwardedTransactions, type Forwarder } from './forwarded-transactions.js';
import { HeldTransactions } from './held-transactions.js';
import type { TransactionOutcomes, WaitFor } from './interface.js';
import type { ReplayedBlock } from './received-block.js';
import type { SubjectiveCallbacks } from './subjective-callbacks.js';
import { TransactionProcessor, decodeTransaction, type DecodedTransaction } from './transaction-processor.js';

/** What the pipeline is set up with (the chain's options it reads). */
export interface PushOptions {
  readonly now: () => number;
  readonly intervalMs: number;
  readonly counters?: TransactionOutcomes;
  /** Passes a packed SignedTransaction on to the producers (chain.ts, ChainOptions). */
  readonly forwarder?: Forwarder;
}

/** A pushed transaction that decoded and whose proofs verified, with what its run gave. */
interface CheckedTransaction<R> {
  readonly trx: DecodedTransaction;
  readonly result: R;
}

/**
 * Transaction intake (docs/chain.md §1; docs/p2p.md "What we build" 4): a pushed transaction is
 * decoded and its proofs verified, then applied to the open block (a producer), or checked by a
 * speculative run and passed on to the producers (any other node). Transactions other nodes pass
 * on are applied by the leader and held by the other active producers for when they lead.
 */
export class PushPipeline {
  /** Transactions passed on to the producers, waiting for a block that holds them. */
  private readonly forwarded: ForwardedTransactions | undefined;
  /** Transactions passed on to this producer while another leads: its first blocks when it leads. */
  private readonly held = new HeldTransactions();
  /** Pushed transactions not yet applied (their proofs are being verified). */
  private pending = 0;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly processor: TransactionProcessor,
    private readonly production: BlockProduction,
    private readonly finality: Finality,
    private readonly callbacks: SubjectiveCallbacks,
    private readonly options: PushOptions,
    /** Whether block 2 exists. */
    private readonly hasChain: () => boolean,
  ) {
    // Passed on again after about one election timeout's worth of slots without a block holding it.
    if (options.forwarder) this.forwarded = new ForwardedTransactions(options.forwarder, 3 * options.intervalMs);
  }

  /** Transactions received and not yet applied (the perf report's `unprocessed`). */
  get unprocessed(): number {
    return this.pending;
  }

  /**
   * push_transaction: decodes, verifies proofs, applies the transaction to the open block and
   * answers with its trace: at once (`applied`) or once its block is final (`final`; a failed
   * transaction's trace comes at its expiration).
   */
  async push(packed: Uint8Array, waitFor: WaitFor = 'final'): Promise<TransactionTrace> {
    if (!this.hasChain()) throw new ChainError('CHAIN_NOT_BOOTED', 'the node has no chain yet (push_boot first)');
    const production = this.production;
    const now = this.options.now;
    // A node with a block open produces (as openBlock says), so only the others read the status
    // row to ask whether this node produces: not once per transaction on a producer.
    if (this.forwarded && !production.hasOpenBlock && !production.produces()) return this.forward(packed, waitFor, this.forwarded);
    const { trx, result: { trace, blockNum } } = await this.checked(packed, (trx) => {
      const block = production.openBlock();
      const trace = block.apply(trx);
      production.transactionApplied(trace.error === null);
      return { trace, blockNum: block.blockNum };
    });
    const counters = this.options.counters;
    if (trace.error === null) counters?.succeeded(trx.id);
    else counters?.failed(trx.id, trace.error, trace);
    this.callbacks.acceptTransaction(trx.id, trace);
    if (waitFor === 'applied') return trace;
    if (trace.error !== null) {
      const untilExpiration = Number(trx.expiration) * 1000 - now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, untilExpiration)).unref());
      return trace;
    }
    const outcome = await this.finality.untilFinal(blockNum);
    if (outcome === 'final') return trace;
    // This node's block lost to another fork, so the transaction is in no block now: it goes to
    // whoever produces now (this node, or the leader it is passed on to) while it can.
    if (Number(trx.expiration) * 1000 > now()) return this.push(packed, waitFor);
    return { ...trace, error: `block ${blockNum}, which held the transaction, was replaced by another fork` };
  }

  /**
   * This node leads now (docs/p2p.md §4 step 7): its first block takes the transactions it holds
   * for other nodes and those it passed on itself ("What we build" 4), which the leader it passed
   * them to may never have put in a block.
   */
  leading(): void {
    // A held one that fails here was never acknowledged: its own node answers for it.
    for (const packed of this.held.take(this.options.now())) this.push(packed, 'applied').catch(() => undefined);
    for (const waiting of this.forwarded?.takeAll() ?? []) {
      this.push(waiting.packed, waiting.waitFor).then(waiting.resolve, (err: Error) => waiting.resolve({ actionTraces: [], error: err.message }));
    }
  }

  /** A producer is reachable that was not: transactions waiting to be in a block are passed on at once. */
  producerReached(): void {
    this.forwarded?.routesChanged();
  }

  /**
   * A transaction another node passed on to the producers ("What we build" 4): the leader applies
   * it; another active producer holds it for when it leads; any other node drops it. The trace
   * (the leader's), or undefined; a transaction that cannot be decoded rejects.
   */
  async passedOn(packed: Uint8Array): Promise<TransactionTrace | undefined> {
    if (this.production.produces()) return this.push(packed, 'applied');
    if (!this.forwarded || !this.production.isActiveProducer()) return undefined;
    const trx = decodeTransaction(packed);
    this.held.hold(bytesToHex(trx.id), packed, Number(trx.expiration) * 1000);
    return undefined;
  }

  /** A block made elsewhere is in: those of its transactions this node passed on or holds are settled. */
  received(replayed: ReplayedBlock): void {
    let ids: string[] | undefined;
    const idsOf = () => (ids ??= replayed.block.transactions.map((t) => bytesToHex(sha256(t.transaction))));
    if (this.forwarded) this.finality.await(this.forwarded.included(replayed, idsOf));
    if (this.held.size > 0) this.held.included(idsOf());
  }

  /**
   * push_transaction on a node that does not produce: the transaction is checked here (proofs,
   * then a speculative run on this node's state, whose refusal answers at once), passed on to
   * the producers, and answered once a block holding it is committed here.
   */
  private async forward(packed: Uint8Array, waitFor: WaitFor, forwarded: ForwardedTransactions): Promise<TransactionTrace> {
    const counters = this.options.counters;
    const { trx, result: trace } = await this.checked(packed, (trx) => this.speculate(trx));
    if (trace.error !== null) {
      counters?.failed(trx.id, trace.error, trace);
      return trace;
    }
    let included: TransactionTrace;
    try {
      included = await forwarded.forward(trx.id, packed, waitFor, Number(trx.expiration) * 1000 - this.options.now());
    } catch (err) {
      counters?.failed(trx.id, 'no producer reachable');
      throw err;
    }
    if (included.error === null) counters?.succeeded(trx.id);
    else counters?.failed(trx.id, included.error, included);
    return included;
  }

  /**
   * A pushed transaction decoded, its proofs verified, then `run` (its trace and what else the
   * caller needs of the run); counted as received, and as failed when any of that throws (the
   * error goes on to the caller). The result is one object of one shape (a spread of `run`'s
   * result made a new hidden class per push, which showed in profiles).
   */
  private async checked<R>(packed: Uint8Array, run: (trx: DecodedTransaction) => R): Promise<CheckedTransaction<R>> {
    const counters = this.options.counters;
    counters?.received();
    this.pending++;
    let trx: DecodedTransaction | undefined;
    try {
      trx = decodeTransaction(packed);
      await this.processor.verifyProofs(trx);
      return { trx, result: run(trx) };
    } catch (err) {
      counters?.failed(trx?.id, (err as Error).message);
      throw err;
    } finally {
      this.pending--;
    }
  }

  /** Runs a transaction as the next block would (startBlock first, for TaPoS), then drops it all. */
  private speculate(trx: DecodedTransaction): TransactionTrace {
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, this.production.blockStart());
    try {
      return this.processor.tryApply(trx);
    } finally {
      builder.discard();
    }
  }
}
