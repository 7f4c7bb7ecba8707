import { DbId } from '../../host-api/abi/databases.js';
import { notifyKey } from '../../host-api/abi/keys.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber, accountNumberFromName } from '../../host-api/names/index.js';
import { NO_ARGUMENTS, type BlockHeader, type Claim, type Producer, type SignedTransaction, type TransactionTrace } from '../../host-api/types/index.js';
import { NotifyRow, TransactionCallbackArgs, type StatusRow } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Signer } from '../keys/signer.js';
import type { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import type { SocketRegistry } from '../wasm/host-state.js';
import { BlockBuilder } from './block-builder.js';
import { isEmptyClaim, type BlockSigners } from './block-signing.js';
import { bootBlock, splitBootList } from './boot.js';
import { readStatus } from './chain-state.js';
import { ChainError } from './errors.js';
import { checkLogin } from './login.js';
import { TransactionProcessor, decodeTransaction, type DecodedTransaction } from './transaction-processor.js';

export type WaitFor = 'applied' | 'final';

/** Notify row types: subjective callbacks the node runs in callback mode. */
const NotifyType = { acceptTransaction: 0, acceptBlock: 1 } as const;
const NOTIFY_KEYS = [notifyKey(NotifyType.acceptTransaction), notifyKey(NotifyType.acceptBlock)];

export interface ChainOptions {
  /** Account that produces blocks; empty or absent = this node does not produce. */
  readonly producer?: string;
  /** Block interval in milliseconds (1 s by default). */
  readonly blockIntervalMs?: number;
  /** Milliseconds since 1970 (tests may pass their own clock). */
  readonly now?: () => number;
  /** Where errors of subjective callbacks go (they never affect consensus). */
  readonly onCallbackError?: (error: Error) => void;
  /** Where a block that could not be produced is reported (e.g. no key for its signature). */
  readonly onProductionError?: (error: Error) => void;
  /** The keys this node signs its blocks with, for a producer claim that asks for signatures. */
  readonly blockSigners?: BlockSigners;
  /** Called after each block is committed, with its header and id. */
  readonly onBlock?: (header: BlockHeader, id: Uint8Array) => void;
  /** Open HTTP requests, which callbacks may answer (deferred replies). */
  readonly sockets?: SocketRegistry;
  /** Counts pushed transactions and their outcomes (the perf report). */
  readonly counters?: TransactionOutcomes;
}

/** What the chain reports of each pushed transaction. */
export interface TransactionOutcomes {
  received(): void;
  succeeded(id: Uint8Array): void;
  /** `id` is absent when the transaction could not even be decoded. */
  failed(id: Uint8Array | undefined, error: string): void;
}

interface FinalWaiter {
  readonly blockNum: number;
  readonly resolve: () => void;
}

/**
 * A single-producer chain (docs/chain.md §1): boots block 2 from push_boot, keeps one block open
 * that pushed transactions apply to at once (so `applied` answers immediately), and closes it at
 * the end of its slot: one block per interval, empty blocks too. With one producer a block is
 * final when committed.
 */
export class Chain {
  readonly processor: TransactionProcessor;
  /** Runs service code for this chain's store. */
  readonly executor: Executor;
  private readonly intervalUs: bigint;
  private readonly now: () => number;
  private producerName: string;
  /** The producer's account number (0 when this node does not produce). */
  private producerAccount: bigint;
  private open: BlockBuilder | undefined;
  private timer: NodeJS.Timeout | undefined;
  private finalWaiters: FinalWaiter[] = [];
  /** Whether block 2 exists; a chain never goes away, so it is read once and then only set. */
  private booted: boolean;
  /** Pushed transactions not yet applied (their proofs are being verified). */
  private pending = 0;

  constructor(readonly store: Store, readonly engine: Engine, private readonly options: ChainOptions = {}) {
    this.executor = new Executor(store, engine);
    this.processor = new TransactionProcessor(store, this.executor);
    this.intervalUs = BigInt(options.blockIntervalMs ?? 1000) * 1000n;
    this.now = options.now ?? Date.now;
    this.producerName = options.producer ?? '';
    this.producerAccount = accountNumberFromName(this.producerName);
    this.booted = readStatus(store)?.head != null;
  }

  get status(): StatusRow | undefined {
    return readStatus(this.store);
  }

  /** Transactions received and not yet applied (the perf report's `unprocessed`). */
  get unprocessed(): number {
    return this.pending;
  }

  /** True once block 2 exists. */
  get hasChain(): boolean {
    return this.booted;
  }

  /** POST /native/admin/push_boot: builds block 2. Returns the trace (its `error` says if boot failed). */
  boot(body: Uint8Array): TransactionTrace {
    if (!this.producerName) throw new ChainError('CHAIN_NO_PRODUCER', 'no producer name set');
    if (this.hasChain) throw new ChainError('CHAIN_ALREADY_BOOTED', 'chain is already booted');
    const transactions = splitBootList(body);
    const builder = new BlockBuilder(this.store, this.executor, this.processor, this.producerAccount, this.slotTime());
    let trace: TransactionTrace;
    try {
      trace = bootBlock(builder, this.store, this.engine, transactions);
    } catch (err) {
      this.store.abort();
      throw err;
    }
    if (trace.error !== null) {
      this.store.abort();
      return trace;
    }
    const boot = builder.finish();
    this.booted = true;
    this.options.onBlock?.(boot.block.header, boot.blockId);
    this.start();
    return trace;
  }

  /**
   * push_transaction: decodes, verifies proofs, applies the transaction to the open block and
   * answers with its trace: at once (`applied`) or once its block is final (`final`; a failed
   * transaction's trace comes at its expiration).
   */
  async push(packed: Uint8Array, waitFor: WaitFor = 'final'): Promise<TransactionTrace> {
    if (!this.hasChain) throw new ChainError('CHAIN_NOT_BOOTED', 'the node has no chain yet (push_boot first)');
    const counters = this.options.counters;
    counters?.received();
    this.pending++;
    let block: BlockBuilder;
    let trx: DecodedTransaction | undefined;
    let trace: TransactionTrace;
    try {
      trx = decodeTransaction(packed);
      await this.processor.verifyProofs(trx);
      block = this.openBlock();
      trace = block.push(trx);
    } catch (err) {
      counters?.failed(trx?.id, (err as Error).message);
      throw err;
    } finally {
      this.pending--;
    }
    if (trace.error === null) counters?.succeeded(trx.id);
    else counters?.failed(trx.id, trace.error);
    this.notify(NotifyType.acceptTransaction, () => TransactionCallbackArgs.pack({ id: trx.id, trace }));
    if (waitFor === 'applied') return trace;
    if (trace.error !== null) {
      const untilExpiration = Number(trx.expiration) * 1000 - this.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, untilExpiration)).unref());
      return trace;
    }
    await new Promise<void>((resolve) => this.finalWaiters.push({ blockNum: block.blockNum, resolve }));
    return trace;
  }

  /** Checks a login transaction against the current state (docs/chain.md §7); returns the user. */
  login(signed: SignedTransaction, rootHost: string): Promise<string> {
    return checkLogin(this.executor, this.processor, signed, rootHost, Math.floor(this.now() / 1000));
  }

  /** The account this node produces as ('' = none). */
  get producer(): string {
    return this.producerName;
  }

  /**
   * Changes the producer name (the `producer` configuration applies at once): the open block
   * is completed under the old name, then production resumes if the new name is active.
   */
  setProducer(name: string): void {
    if (name === this.producerName) return;
    this.stop();
    this.producerName = name;
    this.producerAccount = accountNumberFromName(name);
    this.start();
  }

  /** Starts (or resumes after a restart) block production when this node is an active producer. */
  start(): void {
    if (this.timer || !this.hasChain || !this.isActiveProducer()) return;
    this.schedule();
  }

  /** Stops production; the open block is completed first, so applied transactions are kept. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.open) this.closeBlock();
  }

  private isActiveProducer(): boolean {
    if (!this.producerName) return false;
    const producers = this.currentProducers();
    return producers === undefined || producers.some((p) => p.name === this.producerAccount);
  }

  /** The producers of the current consensus; undefined before boot (whoever boots produces). */
  private currentProducers(status = this.status): Producer[] | undefined {
    const consensus = status?.consensus.current.data;
    if (!consensus) return undefined;
    return 'CftConsensus' in consensus ? consensus.CftConsensus.producers : consensus.BftConsensus.producers;
  }

  /**
   * What signs the next block: nothing when this producer's claim is empty; CHAIN_NO_BLOCK_KEY
   * when the claim asks for signatures and the node holds no key for it.
   */
  private blockSigner(status: StatusRow | undefined): Signer | undefined {
    const claim: Claim | undefined = this.currentProducers(status)?.find((p) => p.name === this.producerAccount)?.auth;
    if (!claim || isEmptyClaim(claim)) return undefined;
    const signer = this.options.blockSigners?.(claim);
    if (!signer) {
      throw new ChainError('CHAIN_NO_BLOCK_KEY',
        `this node holds no key to sign the blocks of producer '${this.producerName}' (claim of '${accountNameFromNumber(claim.service)}' with key ${bytesToHex(claim.rawData)})`);
    }
    return signer;
  }

  /** The time of the next block: max(head + interval, now floored to the interval). */
  private slotTime(status = this.status): bigint {
    const nowUs = BigInt(this.now()) * 1000n;
    const floored = nowUs - (nowUs % this.intervalUs);
    const head = status?.head?.header.time;
    return head !== undefined && head + this.intervalUs > floored ? head + this.intervalUs : floored;
  }

  private openBlock(): BlockBuilder {
    if (this.open) return this.open;
    if (!this.producerName) throw new ChainError('CHAIN_NO_PRODUCER', 'this node does not produce blocks (no producer name set)');
    const status = this.status;
    const builder = new BlockBuilder(this.store, this.executor, this.processor, this.producerAccount, this.slotTime(status), this.blockSigner(status));
    try {
      builder.start();
    } catch (err) {
      this.store.abort();
      throw err;
    }
    this.open = builder;
    return builder;
  }

  private closeBlock(): void {
    const builder = this.open!;
    this.open = undefined;
    const { block, blockId } = builder.finish();
    const final = this.finalWaiters.filter((w) => w.blockNum <= builder.blockNum);
    this.finalWaiters = this.finalWaiters.filter((w) => w.blockNum > builder.blockNum);
    for (const w of final) w.resolve();
    this.notify(NotifyType.acceptBlock, () => NO_ARGUMENTS);
    this.options.onBlock?.(block.header, blockId);
  }

  /**
   * Closes the open block at the end of its slot and opens the next. A block that cannot be
   * opened (no key for its signature, a failing startBlock) is reported and tried again a slot
   * later, so adding the key or unlocking its device resumes production.
   */
  private schedule(): void {
    let closeAt: number;
    try {
      const open = this.openBlock();
      closeAt = Number((open.header.time + this.intervalUs) / 1000n);
    } catch (err) {
      this.options.onProductionError?.(err as Error);
      closeAt = this.now() + Number(this.intervalUs / 1000n);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        if (this.open) this.closeBlock();
      } catch (err) {
        this.options.onProductionError?.(err as Error);
      }
      if (this.isActiveProducer()) this.schedule();
    }, Math.max(0, closeAt - this.now()));
  }

  /**
   * Runs the subjective callbacks of a notify row in callback mode; their errors are only
   * reported. Their argument is built only when there are callbacks.
   */
  private notify(type: number, args: () => Uint8Array): void {
    const row = this.store.get(DbId.native, NOTIFY_KEYS[type]!);
    if (!row) return;
    const rawData = args();
    const sockets = this.options.sockets;
    for (const action of NotifyRow.unpack(row).actions) {
      const result = this.executor.run({ mode: 'callback', target: { action: { ...action, rawData } }, sockets: sockets && { open: sockets } });
      if (result.sockets) sockets!.settle(result.sockets);
      if (result.error) this.options.onCallbackError?.(result.error);
    }
  }
}
