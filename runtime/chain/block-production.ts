import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber, accountNumberFromName } from '../../host-api/names/index.js';
import type { TransactionTrace } from '../../host-api/types/index.js';
import type { StatusRow } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import type { Executor } from '../wasm/executor.js';
import { keepAuxConsensusData } from './block-aux-data.js';
import { BlockBuilder, type BlockStart, type ClosedBlock, type Sealer } from './block-builder.js';
import { isEmptyClaim, signBlock, type BlockSigners } from './block-signing.js';
import { bootBlock, splitBootList } from './boot.js';
import { readStatus } from './chain-state.js';
import { activeProducers, isSoleProducer, nextBlockConsensus, producerClaim } from './consensus.js';
import { ChainError } from './errors.js';
import type { Finality } from './finality.js';
import type { TransactionProcessor } from './transaction-processor.js';

/** What production is set up with (the chain's options it reads). */
export interface ProductionOptions {
  /** Account that produces blocks; empty = this node does not produce. */
  readonly producer: string;
  /** The slot length; under instant production the least step between two blocks' times. */
  readonly intervalUs: bigint;
  /** Instant production (chain.ts, ChainOptions.instantBlocks): a block per pushed transaction, none while idle. */
  readonly instant?: boolean;
  readonly now: () => number;
  /** The keys this node signs its blocks with, for a producer claim that asks for signatures. */
  readonly blockSigners?: BlockSigners;
  /** The auxConsensusData of a block this node produces whose header names `commitNum` (chain.ts, ChainOptions). */
  readonly auxConsensusData?: (commitNum: number) => Uint8Array | null;
  /** Where a block that could not be produced is reported (e.g. no key for its signature). */
  readonly onProductionError?: (error: Error) => void;
  /** No slot timer: a block closes only when produceBlock says (chain.ts, ChainOptions). */
  readonly manualBlocks?: boolean;
}

/** The block this node is producing, with how it will be sealed. */
interface OpenBlock {
  readonly builder: BlockBuilder;
  readonly seal: Sealer;
  readonly auxConsensusData: Uint8Array | null;
}

const EMPTY = new Uint8Array(0);
const UNSIGNED: Sealer = () => ({ signature: EMPTY });

/**
 * Block production (docs/chain.md §1.3): as an active producer this node boots block 2, keeps one
 * block open that pushed transactions apply to at once, and closes it at the end of its slot (one
 * block per interval, empty blocks too). Instant production (a development chain's) has no slots:
 * a pushed transaction opens a block, which closes as soon as it is applied, and a sole
 * producer's block is final then, since no next block comes to carry its commit. Under consensus
 * (docs/p2p.md §4) it produces only while it leads a term. A received block being verified holds
 * the head (holdHead): the end of a slot waits until it is in or refused.
 */
export class BlockProduction {
  private producerName: string;
  /** The producer's account number (0 when this node does not produce). */
  private producerAccount: bigint;
  private open: OpenBlock | undefined;
  private timer: NodeJS.Timeout | undefined;
  /**
   * Production under consensus (docs/p2p.md §4): undefined while no consensus drives this chain
   * (an active producer produces, term 0); once one does, the term this node leads, or null.
   */
  private leaderTerm: number | null | undefined;
  /** Production stopped for good (close). */
  private closed = false;
  /**
   * A received block is being verified (its signatures off the main thread): its parent must stay
   * the head, so the end of a slot (closing the open block) waits until it is in or refused.
   */
  private headHeld = false;
  /**
   * What came while a received block was verified, done once it is in or refused: the end of the
   * slot (close the open block, open the next), or a stop (close it).
   */
  private waiting: 'slotEnd' | 'stop' | undefined;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly processor: TransactionProcessor,
    private readonly finality: Finality,
    private readonly options: ProductionOptions,
    /** Whether block 2 exists. */
    private readonly hasChain: () => boolean,
    /** A block this node produced (or booted) is committed. */
    private readonly committed: (closed: ClosedBlock) => void,
  ) {
    this.producerName = options.producer;
    this.producerAccount = accountNumberFromName(this.producerName);
  }

  /** The account this node produces as ('' = none). */
  get producer(): string {
    return this.producerName;
  }

  /** Whether a block of this node's is open (then it produces). */
  get hasOpenBlock(): boolean {
    return this.open !== undefined;
  }

  /** POST /native/admin/push_boot: builds block 2. Returns the trace (its `error` says if boot failed). */
  boot(body: Uint8Array, engine: Engine): TransactionTrace {
    if (!this.producerName) throw new ChainError('CHAIN_NO_PRODUCER', 'no producer name set');
    if (this.hasChain()) throw new ChainError('CHAIN_ALREADY_BOOTED', 'chain is already booted');
    const transactions = splitBootList(body);
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, this.blockStart());
    let trace: TransactionTrace;
    try {
      trace = bootBlock(builder, this.store, engine, transactions);
    } catch (err) {
      builder.discard();
      throw err;
    }
    if (trace.error !== null) {
      builder.discard();
      return trace;
    }
    this.committed(builder.close(UNSIGNED, this.finality.commit));
    this.start();
    return trace;
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
    if (this.options.instant || this.options.manualBlocks || this.closed || this.timer || !this.hasChain() || !this.produces()) return;
    this.schedule();
  }

  /**
   * Closes this node's block now, an empty one when none is open (manual blocks). A block that
   * cannot be opened or closed throws (CHAIN_NO_PRODUCER, CHAIN_NO_BLOCK_KEY, a failing callback)
   * and is dropped, as at the end of a slot.
   */
  produceBlock(): void {
    if (this.closed) throw new ChainError('CHAIN_CLOSED', 'the chain is closed');
    if (this.headHeld) throw new ChainError('CHAIN_HEAD_HELD', 'a received block is being verified: produce once it is in or refused');
    this.openBlock();
    this.closeBlock();
  }

  /**
   * A pushed transaction was applied to the open block (`included`: it succeeded). Under instant
   * production the block closes now; one whose transaction failed is dropped, so that no empty
   * block is made and no block stays open with a time that grows old.
   */
  transactionApplied(included: boolean): void {
    if (!this.options.instant || !this.open) return;
    if (included) {
      this.endSlot();
    } else if (this.waiting === undefined) {
      this.open.builder.discard();
      this.open = undefined;
    }
  }

  /** Consensus drives production from now on: this node produces only while it leads a term. */
  followConsensus(): void {
    if (this.leaderTerm !== undefined) return;
    this.leaderTerm = null;
    this.stop();
  }

  /** Consensus elected this node leader of `term`: it produces, if it is an active producer. */
  lead(term: number): void {
    this.leaderTerm = term;
    this.start();
  }

  /** A newer term began, or this leader's commits stalled: it stops producing. */
  stopLeading(): void {
    if (this.leaderTerm === undefined) return;
    this.leaderTerm = null;
    this.stop();
  }

  /**
   * Stops production; the open block is completed first, so applied transactions are kept (unless
   * it fails to close: that is reported, as in production).
   */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.open) return;
    if (this.headHeld) this.waiting = 'stop';
    else this.closeReporting();
  }

  /** Stops production for good, before the store closes: nothing that comes later starts it again. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  /** Whether this node makes blocks now: an active producer, and the leader when consensus decides. */
  produces(): boolean {
    return this.leaderTerm !== null && this.isActiveProducer();
  }

  isActiveProducer(): boolean {
    if (!this.producerName) return false;
    const status = readStatus(this.store);
    // Before boot there are no producers: whoever boots produces.
    return !status || activeProducers(nextBlockConsensus(status)).some((p) => p.name === this.producerAccount);
  }

  /**
   * The start of this node's next block. Its commitNum is the irreversible block: the sole
   * producer of every active set has confirmed its own head (CFT with one producer, docs/p2p.md
   * §4 step 2), so a change of producers that keeps it alone ends its joint consensus at once.
   */
  blockStart(status = readStatus(this.store)): BlockStart {
    const head = status?.head?.header;
    if (this.leaderTerm !== undefined) {
      // The leader's block names its term and its commit index at slot start (§4 step 7).
      const commitNum = head ? this.finality.irreversibleAt(head, status) : 0;
      return { time: this.slotTime(status), producer: this.producerAccount, term: this.leaderTerm ?? 0, commitNum };
    }
    const commitNum = head && isSoleProducer(nextBlockConsensus(status), this.producerAccount) ? head.blockNum : head?.commitNum ?? 0;
    return { time: this.slotTime(status), producer: this.producerAccount, term: 0, commitNum };
  }

  /** This node's open block, opened now if none is; CHAIN_NO_PRODUCER when this node does not produce now. */
  openBlock(): BlockBuilder {
    if (this.open) return this.open.builder;
    if (!this.producerName) throw new ChainError('CHAIN_NO_PRODUCER', 'this node does not produce blocks (no producer name set)');
    if (!this.isActiveProducer()) throw new ChainError('CHAIN_NO_PRODUCER', `this node does not produce blocks ('${this.producerName}' is not an active producer)`);
    if (!this.produces()) throw new ChainError('CHAIN_NO_PRODUCER', `this node does not produce blocks now: '${this.producerName}' is not the leader`);
    const status = readStatus(this.store);
    const seal = this.blockSealer(status);
    const start = this.blockStart(status);
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, start);
    this.open = { builder, seal, auxConsensusData: this.options.auxConsensusData?.(start.commitNum) ?? null };
    return builder;
  }

  /**
   * The head is about to change under the block this node has open (a received block goes on the
   * head, or a fork switch takes the head back): the block is dropped, as psibase cancels its
   * pending block when the head changes, and the pushes waiting for it to be final are pushed
   * again, as a reverted block's are. (Refusing the received block instead left a leader that
   * had just opened a block unable to take the blocks of the producers that went on without it:
   * sync blacklisted them and the link that brought them was closed; the chaos runs found it.)
   */
  dropOpenBlock(): void {
    if (!this.open) return;
    const { builder } = this.open;
    this.open = undefined;
    builder.discard();
    this.finality.gone(builder.blockNum);
  }

  /** A received block is being verified: its parent stays the head until releaseHead. */
  holdHead(): void {
    this.headHeld = true;
  }

  /** The received block checked out or was refused: the head may change again. */
  releaseHead(): void {
    this.headHeld = false;
  }

  /** What came while a received block was verified is done now (a block still open is ours, the received one refused). */
  doWhatWaited(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting === 'slotEnd') this.endSlot();
    else if (waiting === 'stop' && this.open) this.closeReporting();
  }

  /**
   * How the next block is sealed: unsigned when this producer's claim is empty; CHAIN_NO_BLOCK_KEY
   * when the claim asks for signatures and the node holds no key for it.
   */
  private blockSealer(status: StatusRow | undefined): Sealer {
    const claim = producerClaim(status, this.producerAccount);
    if (!claim || isEmptyClaim(claim)) return UNSIGNED;
    const signer = this.options.blockSigners?.(claim);
    if (!signer) {
      throw new ChainError('CHAIN_NO_BLOCK_KEY',
        `this node holds no key to sign the blocks of producer '${this.producerName}' (claim of '${accountNameFromNumber(claim.service)}' with key ${bytesToHex(claim.rawData)})`);
    }
    return (_header, blockId) => ({ signature: signBlock(blockId, signer) });
  }

  /** The time of the next block: max(head + interval, now floored to the interval). */
  private slotTime(status = readStatus(this.store)): bigint {
    const { intervalUs } = this.options;
    const nowUs = BigInt(this.options.now()) * 1000n;
    const floored = nowUs - (nowUs % intervalUs);
    const head = status?.head?.header.time;
    return head !== undefined && head + intervalUs > floored ? head + intervalUs : floored;
  }

  private closeBlock(): void {
    const { builder, seal, auxConsensusData } = this.open!;
    this.open = undefined;
    let closed: ClosedBlock;
    try {
      closed = builder.close(seal, this.finality.commit);
    } catch (err) {
      this.finality.aborted(builder.blockNum, err as Error);
      throw err;
    }
    keepAuxConsensusData(this.store, closed.blockId, auxConsensusData);
    // Instant production: a sole producer's block is final when it closes (docs/chain.md §1.3).
    if (this.options.instant && isSoleProducer(nextBlockConsensus(readStatus(this.store)!), this.producerAccount)) {
      this.finality.commitTo(builder.blockNum);
    }
    this.committed(closed);
  }

  /** Closes the open block; a block that fails to close is reported and dropped. */
  private closeReporting(): void {
    try {
      this.closeBlock();
    } catch (err) {
      this.options.onProductionError?.(err as Error);
    }
  }

  /**
   * Closes the open block at the end of its slot and opens the next. A block that cannot be
   * opened (no key for its signature, a failing startBlock) is reported and tried again a slot
   * later, so adding the key or unlocking its device resumes production. A block that fails to
   * close (a failing objective onBlock callback) is reported and dropped with its transactions,
   * and the next slot's block is built afresh (docs/system-services.md "Blocks").
   */
  private schedule(): void {
    const intervalMs = Number(this.options.intervalUs / 1000n);
    let closeAt: number;
    try {
      const open = this.openBlock();
      closeAt = Number((open.header.time + this.options.intervalUs) / 1000n);
    } catch (err) {
      this.options.onProductionError?.(err as Error);
      closeAt = this.options.now() + intervalMs;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.endSlot();
    }, Math.max(0, closeAt - this.options.now()));
  }

  /** The slot is over: its block closes and the next opens, once no received block is being verified. */
  private endSlot(): void {
    if (this.headHeld) {
      this.waiting = 'slotEnd';
      return;
    }
    if (this.open) this.closeReporting();
    // Closing the block may have started the next one already (consensus made this node lead on it).
    this.start();
  }
}
