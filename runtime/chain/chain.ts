import { DbId } from '../../host-api/abi/databases.js';
import { notifyKey } from '../../host-api/abi/keys.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber, accountNumberFromName } from '../../host-api/names/index.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { NO_ARGUMENTS, type BlockHeader, type SignedBlock, type SignedTransaction, type TransactionTrace } from '../../host-api/types/index.js';
import { NotifyRow, TransactionCallbackArgs, type StatusRow } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import type { SocketRegistry } from '../wasm/host-state.js';
import { keepAuxConsensusData } from './block-aux-data.js';
import { BlockBuilder, type BlockStart, type ClosedBlock, type Sealer } from './block-builder.js';
import { readBlock, readLogStart } from './block-log.js';
import { readStoredBlock, type StoredBlock } from './stored-block.js';
import { isEmptyClaim, signBlock, type BlockSigners } from './block-signing.js';
import { bootBlock, splitBootList } from './boot.js';
import { readStatus } from './chain-state.js';
import { activeProducers, irreversibleAt, isSoleProducer, nextBlockConsensus, producerClaim } from './consensus.js';
import { ChainError } from './errors.js';
import { ForwardedTransactions, type FinalWaiter, type Forwarder } from './forwarded-transactions.js';
import { HeldTransactions } from './held-transactions.js';
import { sha256 } from '../crypto/sha256.js';
import { checkLogin } from './login.js';
import { replayBlock, verifyReceivedBlock } from './received-block.js';
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
  /**
   * The auxConsensusData of a block this node produces whose header names `commitNum`, kept with
   * it before it is announced (BFT's commit proof of that block, docs/p2p.md §3.5); none when
   * absent or null. Asked when the block opens: commits that come in while it is open move the
   * commit index on, and consensus keeps no proofs of the blocks below it.
   */
  readonly auxConsensusData?: (commitNum: number) => Uint8Array | null;
  /** Called after each block is committed, with its header and id. */
  readonly onBlock?: (header: BlockHeader, id: Uint8Array) => void;
  /** Open HTTP requests, which callbacks may answer (deferred replies). */
  readonly sockets?: SocketRegistry;
  /** Counts pushed transactions and their outcomes (the perf report). */
  readonly counters?: TransactionOutcomes;
  /**
   * Passes a packed SignedTransaction on to the producers, when this node does not produce
   * (docs/p2p.md, "What we build" 4); false when no producer can be reached. Without it, or
   * when it reaches none, such a node refuses pushed transactions.
   */
  readonly forwarder?: Forwarder;
}

/** What the chain reports of each pushed transaction. */
export interface TransactionOutcomes {
  received(): void;
  succeeded(id: Uint8Array): void;
  /** `id` is absent when the transaction could not even be decoded. */
  failed(id: Uint8Array | undefined, error: string): void;
}

/** The head block and what is irreversible (docs/p2p.md §6.3). */
export interface ChainHead {
  readonly header: BlockHeader;
  readonly blockId: Uint8Array;
  /** The last irreversible block number: the head's commitNum. */
  readonly irreversible: number;
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
 * A chain (docs/chain.md §1). As its producer it boots block 2 from push_boot, keeps one block
 * open that pushed transactions apply to at once (so `applied` answers immediately), and closes
 * it at the end of its slot: one block per interval, empty blocks too; with one producer a block
 * is final when committed. As a follower (no producer name, or not in the producer set) it never
 * produces and applies the blocks peers send (docs/p2p.md §3.4). Produced and applied blocks take
 * the same BlockBuilder lifecycle and the same hooks once committed.
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
  private open: OpenBlock | undefined;
  private timer: NodeJS.Timeout | undefined;
  private finalWaiters: FinalWaiter[] = [];
  /** Transactions passed on to the producers, waiting for a block that holds them. */
  private readonly forwarded: ForwardedTransactions | undefined;
  /** Transactions passed on to this producer while another leads: its first blocks when it leads. */
  private readonly held = new HeldTransactions();
  /** Whether block 2 exists; a chain never goes away, so it is read once and then only set. */
  private booted: boolean;
  /** Pushed transactions not yet applied (their proofs are being verified). */
  private pending = 0;
  /**
   * Production under consensus (docs/p2p.md §4): undefined while no consensus drives this chain
   * (an active producer produces, term 0); once one does, the term this node leads, or null.
   */
  private leaderTerm: number | null | undefined;
  /** The irreversible block consensus has established here (a leader's commit index). */
  private consensusCommit = 0;
  /** Production stopped for good (close). */
  private closed = false;
  /** The received blocks being applied, one after another, in the order they came. */
  private applying: Promise<unknown> = Promise.resolve();
  /**
   * A received block is being verified (its signatures off the main thread): its parent must stay
   * the head, so the end of a slot (closing the open block) waits until it is in or refused.
   */
  private receiving = false;
  /**
   * What came while a received block was verified, done once it is in or refused: the end of the
   * slot (close the open block, open the next), or a stop (close it).
   */
  private waiting: 'slotEnd' | 'stop' | undefined;

  constructor(readonly store: Store, readonly engine: Engine, private readonly options: ChainOptions = {}) {
    this.executor = new Executor(store, engine);
    this.processor = new TransactionProcessor(store, this.executor);
    this.intervalUs = BigInt(options.blockIntervalMs ?? 1000) * 1000n;
    this.now = options.now ?? Date.now;
    this.producerName = options.producer ?? '';
    this.producerAccount = accountNumberFromName(this.producerName);
    this.booted = readStatus(store)?.head != null;
    // Passed on again after about one election timeout's worth of slots without a block holding it.
    if (options.forwarder) this.forwarded = new ForwardedTransactions(options.forwarder, 3 * Number(this.intervalUs / 1000n));
    // A loaded snapshot's block is irreversible (its producers signed it, docs/p2p.md §7.3), and
    // so is every block whose undo record was dropped before a restart.
    this.consensusCommit = Math.max(readLogStart(store) ?? 0, this.withoutUndo());
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
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, this.blockStart());
    let trace: TransactionTrace;
    try {
      trace = bootBlock(builder, this.store, this.engine, transactions);
    } catch (err) {
      builder.discard();
      throw err;
    }
    if (trace.error !== null) {
      builder.discard();
      return trace;
    }
    this.committed(builder.close(UNSIGNED, this.consensusCommit));
    this.start();
    return trace;
  }

  /**
   * Applies a block produced elsewhere (docs/p2p.md §3.4): it must be the block after the head
   * (block 2 on an empty node), signed by its producer for the claim in force, with verifying
   * proofs, and executing it must derive its header exactly. The signature and aux data are kept
   * as received. Calls are applied one after another in call order. A block of this node's own
   * that is open when the received one checks out is dropped (dropOpenBlock). A refused block
   * changes nothing and rejects with a ChainError (BLOCK_NOT_NEXT, BLOCK_INVALID,
   * BLOCK_SIGNATURE, BLOCK_TRANSACTION, BLOCK_MISMATCH, BLOCK_FAILED) saying why.
   */
  applyBlock(signed: SignedBlock): Promise<ClosedBlock> {
    const applied = this.applying.then(() => this.applyNext(signed));
    this.applying = applied.catch(() => undefined);
    return applied;
  }

  private async applyNext(signed: SignedBlock): Promise<ClosedBlock> {
    this.receiving = true;
    try {
      const verified = await verifyReceivedBlock(this.store, this.executor, this.processor, signed);
      this.receiving = false;
      // Checked, it goes on the head: a block of our own open on that head goes first. Only a
      // block that checks out does that, so a peer's bad blocks cannot keep a leader from producing.
      this.dropOpenBlock();
      const replayed = replayBlock(this.store, this.executor, this.processor, this.engine, verified, this.consensusCommit);
      let ids: string[] | undefined;
      const idsOf = () => (ids ??= replayed.block.transactions.map((t) => bytesToHex(sha256(t.transaction))));
      // Only blocks made elsewhere hold transactions this node passed on or holds (it does not produce).
      if (this.forwarded) this.finalWaiters.push(...this.forwarded.included(replayed, idsOf));
      if (this.held.size > 0) this.held.included(idsOf());
      this.committed(replayed);
      return replayed;
    } finally {
      this.receiving = false;
      this.doWhatWaited();
    }
  }

  /**
   * The head is about to change under the block this node has open (a received block goes on the
   * head, or a fork switch takes the head back): the block is dropped, as psibase cancels its
   * pending block when the head changes, and the pushes waiting for it to be final are pushed
   * again, as a reverted block's are. (Refusing the received block instead left a leader that
   * had just opened a block unable to take the blocks of the producers that went on without it:
   * sync blacklisted them and the link that brought them was closed; the chaos runs found it.)
   */
  private dropOpenBlock(): void {
    if (!this.open) return;
    const { builder } = this.open;
    this.open = undefined;
    builder.discard();
    this.blockGone(builder.blockNum);
  }

  /** Block `blockNum` of this node is in no chain any more: the pushes waiting for it to be final are told. */
  private blockGone(blockNum: number): void {
    for (const w of this.finalWaiters.filter((f) => f.blockNum === blockNum)) w.reverted();
    this.finalWaiters = this.finalWaiters.filter((f) => f.blockNum !== blockNum);
  }

  /**
   * Takes back the newest blocks until block `blockNum` is the head again (docs/chain.md §1.6),
   * to switch to another fork. Only reversible blocks can go: reverting below the irreversible
   * block rejects with CHAIN_IRREVERSIBLE and changes nothing. Queued with applyBlock.
   */
  revertTo(blockNum: number): Promise<void> {
    const reverted = this.applying.then(() => this.revertNow(blockNum));
    this.applying = reverted.catch(() => undefined);
    return reverted;
  }

  private revertNow(blockNum: number): void {
    const head = this.status?.head?.header.blockNum ?? 0;
    if (blockNum >= head) return;
    // Records form a run ending at the head (those up to the irreversible block are dropped).
    const reversible = this.store.reversibleBlocks();
    const first = reversible[0];
    if (first === undefined || first > blockNum + 1 || reversible[reversible.length - 1] !== head) {
      throw new ChainError('CHAIN_IRREVERSIBLE', `cannot revert to block ${blockNum}: blocks up to ${first === undefined ? head : first - 1} are irreversible`);
    }
    this.dropOpenBlock();
    for (let n = head; n > blockNum; n--) {
      this.store.revertBlock(n);
      this.blockGone(n);
    }
  }

  /**
   * A snapshot from a peer replaced the state (docs/p2p.md §7.4): its block is the head and
   * irreversible. Nothing may be applying.
   */
  snapshotLoaded(): void {
    this.booted = true;
    this.consensusCommit = readLogStart(this.store) ?? 0;
  }

  /** The head block and the last irreversible block number; undefined before block 2. */
  get head(): ChainHead | undefined {
    const status = this.status;
    const head = status?.head;
    return head ? { header: head.header, blockId: head.blockId, irreversible: this.irreversibleAt(head.header, status) } : undefined;
  }

  /** Block `blockNum` as it is sent to peers: from the block log, its signature and aux data. */
  signedBlockAt(blockNum: number): StoredBlock | undefined {
    return readStoredBlock(this.store, blockNum);
  }

  /** The id of block `blockNum`, if this node has it. */
  blockIdAt(blockNum: number): Uint8Array | undefined {
    const block = readBlock(this.store, blockNum);
    return block ? computeBlockId(block.header) : undefined;
  }

  /**
   * push_transaction: decodes, verifies proofs, applies the transaction to the open block and
   * answers with its trace: at once (`applied`) or once its block is final (`final`; a failed
   * transaction's trace comes at its expiration).
   */
  async push(packed: Uint8Array, waitFor: WaitFor = 'final'): Promise<TransactionTrace> {
    if (!this.hasChain) throw new ChainError('CHAIN_NOT_BOOTED', 'the node has no chain yet (push_boot first)');
    // A node with a block open produces (as openBlock says), so only the others read the status
    // row to ask whether this node produces: not once per transaction on a producer.
    if (this.forwarded && !this.open && !this.produces()) return this.forward(packed, waitFor, this.forwarded);
    const { trx, trace, blockNum } = await this.checked(packed, (trx) => {
      const block = this.openBlock();
      return { trace: block.apply(trx), blockNum: block.blockNum };
    });
    const counters = this.options.counters;
    if (trace.error === null) counters?.succeeded(trx.id);
    else counters?.failed(trx.id, trace.error);
    this.notify(NotifyType.acceptTransaction, () => TransactionCallbackArgs.pack({ id: trx.id, trace }));
    if (waitFor === 'applied') return trace;
    if (trace.error !== null) {
      const untilExpiration = Number(trx.expiration) * 1000 - this.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, untilExpiration)).unref());
      return trace;
    }
    const outcome = await new Promise<'final' | 'reverted'>((resolve, reject) =>
      this.finalWaiters.push({ blockNum, resolve: () => resolve('final'), reverted: () => resolve('reverted'), reject }));
    if (outcome === 'final') return trace;
    // This node's block lost to another fork, so the transaction is in no block now: it goes to
    // whoever produces now (this node, or the leader it is passed on to) while it can.
    if (Number(trx.expiration) * 1000 > this.now()) return this.push(packed, waitFor);
    return { ...trace, error: `block ${blockNum}, which held the transaction, was replaced by another fork` };
  }

  /**
   * push_transaction on a node that does not produce: the transaction is checked here (proofs,
   * then a speculative run on this node's state, whose refusal answers at once), passed on to
   * the producers, and answered once a block holding it is committed here.
   */
  private async forward(packed: Uint8Array, waitFor: WaitFor, forwarded: ForwardedTransactions): Promise<TransactionTrace> {
    const counters = this.options.counters;
    const { trx, trace } = await this.checked(packed, (trx) => ({ trace: this.speculate(trx) }));
    if (trace.error !== null) {
      counters?.failed(trx.id, trace.error);
      return trace;
    }
    let included: TransactionTrace;
    try {
      included = await forwarded.forward(trx.id, packed, waitFor, Number(trx.expiration) * 1000 - this.now());
    } catch (err) {
      counters?.failed(trx.id, 'no producer reachable');
      throw err;
    }
    if (included.error === null) counters?.succeeded(trx.id);
    else counters?.failed(trx.id, included.error);
    return included;
  }

  /**
   * A pushed transaction decoded, its proofs verified, then `run` (its trace and what else the
   * caller needs of the run); counted as received, and as failed when any of that throws (the
   * error goes on to the caller).
   */
  private async checked<R extends { readonly trace: TransactionTrace }>(packed: Uint8Array, run: (trx: DecodedTransaction) => R): Promise<R & { trx: DecodedTransaction }> {
    const counters = this.options.counters;
    counters?.received();
    this.pending++;
    let trx: DecodedTransaction | undefined;
    try {
      trx = decodeTransaction(packed);
      await this.processor.verifyProofs(trx);
      return { ...run(trx), trx };
    } catch (err) {
      counters?.failed(trx?.id, (err as Error).message);
      throw err;
    } finally {
      this.pending--;
    }
  }

  /** Runs a transaction as the next block would (startBlock first, for TaPoS), then drops it all. */
  private speculate(trx: DecodedTransaction): TransactionTrace {
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, this.blockStart());
    try {
      return this.processor.tryApply(trx);
    } finally {
      builder.discard();
    }
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
    if (this.closed || this.timer || !this.hasChain || !this.produces()) return;
    this.schedule();
  }

  /**
   * Consensus drives production from now on (docs/p2p.md §4): this node produces only while it
   * leads a term, and its blocks carry that term and the commit index consensus reached.
   */
  followConsensus(): void {
    if (this.leaderTerm !== undefined) return;
    this.leaderTerm = null;
    this.stop();
  }

  /**
   * Consensus elected this node leader of `term` (docs/p2p.md §4 step 7): it produces, and its
   * first block takes the transactions it holds for other nodes and those it passed on itself
   * ("What we build" 4), which the leader it passed them to may never have put in a block.
   */
  lead(term: number): void {
    this.leaderTerm = term;
    this.start();
    if (!this.produces()) return;
    // A held one that fails here was never acknowledged: its own node answers for it.
    for (const packed of this.held.take(this.now())) this.push(packed, 'applied').catch(() => undefined);
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
    if (this.produces()) return this.push(packed, 'applied');
    if (!this.forwarded || !this.isActiveProducer()) return undefined;
    const trx = decodeTransaction(packed);
    this.held.hold(bytesToHex(trx.id), packed, Number(trx.expiration) * 1000);
    return undefined;
  }

  /** A newer term began, or this leader's commits stalled: it stops producing. */
  stopLeading(): void {
    if (this.leaderTerm === undefined) return;
    this.leaderTerm = null;
    this.stop();
  }

  /** Whether this node makes blocks now: an active producer, and the leader when consensus decides. */
  get producing(): boolean {
    return this.produces();
  }

  /**
   * Consensus made the blocks up to `num` irreversible here (a leader's commit index, docs/p2p.md
   * §4 step 9): `final` waiters for them are answered, and the next block says so.
   */
  commitTo(num: number): void {
    if (num <= this.consensusCommit) return;
    this.consensusCommit = num;
    const head = this.status?.head?.header;
    if (head) this.answerFinal(this.irreversibleAt(head));
  }

  /**
   * Stops production; the open block is completed first, so applied transactions are kept (unless
   * it fails to close: that is reported, as in production).
   */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.open) return;
    if (this.receiving) this.waiting = 'stop';
    else this.closeReporting();
  }

  /** Stops production for good, before the store closes: nothing that comes later starts it again. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private produces(): boolean {
    return this.leaderTerm !== null && this.isActiveProducer();
  }

  private isActiveProducer(): boolean {
    if (!this.producerName) return false;
    const status = this.status;
    // Before boot there are no producers: whoever boots produces.
    return !status || activeProducers(nextBlockConsensus(status)).some((p) => p.name === this.producerAccount);
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

  /** The start of this node's next block: its slot, its name, and the head as its irreversible block. */
  /**
   * The start of this node's next block. Its commitNum is the irreversible block: the sole
   * producer of every active set has confirmed its own head (CFT with one producer, docs/p2p.md
   * §4 step 2), so a change of producers that keeps it alone ends its joint consensus at once.
   */
  private blockStart(status = this.status): BlockStart {
    const head = status?.head?.header;
    if (this.leaderTerm !== undefined) {
      // The leader's block names its term and its commit index at slot start (§4 step 7).
      const commitNum = head ? this.irreversibleAt(head, status) : 0;
      return { time: this.slotTime(status), producer: this.producerAccount, term: this.leaderTerm ?? 0, commitNum };
    }
    const commitNum = head && isSoleProducer(nextBlockConsensus(status), this.producerAccount) ? head.blockNum : head?.commitNum ?? 0;
    return { time: this.slotTime(status), producer: this.producerAccount, term: 0, commitNum };
  }

  /** The time of the next block: max(head + interval, now floored to the interval). */
  private slotTime(status = this.status): bigint {
    const nowUs = BigInt(this.now()) * 1000n;
    const floored = nowUs - (nowUs % this.intervalUs);
    const head = status?.head?.header.time;
    return head !== undefined && head + this.intervalUs > floored ? head + this.intervalUs : floored;
  }

  private openBlock(): BlockBuilder {
    if (this.open) return this.open.builder;
    if (!this.producerName) throw new ChainError('CHAIN_NO_PRODUCER', 'this node does not produce blocks (no producer name set)');
    if (!this.isActiveProducer()) throw new ChainError('CHAIN_NO_PRODUCER', `this node does not produce blocks ('${this.producerName}' is not an active producer)`);
    if (!this.produces()) throw new ChainError('CHAIN_NO_PRODUCER', `this node does not produce blocks now: '${this.producerName}' is not the leader`);
    const status = this.status;
    const seal = this.blockSealer(status);
    const start = this.blockStart(status);
    const builder = BlockBuilder.open(this.store, this.executor, this.processor, start);
    this.open = { builder, seal, auxConsensusData: this.options.auxConsensusData?.(start.commitNum) ?? null };
    return builder;
  }

  private closeBlock(): void {
    const { builder, seal, auxConsensusData } = this.open!;
    this.open = undefined;
    let closed: ClosedBlock;
    try {
      closed = builder.close(seal, this.consensusCommit);
    } catch (err) {
      this.aborted(builder.blockNum, err as Error);
      throw err;
    }
    keepAuxConsensusData(this.store, closed.blockId, auxConsensusData);
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
   * The open block failed to close (an objective onBlock callback failed, or it could not be
   * signed) and its transactions went with it: the pushes waiting for it to be final are refused
   * (docs/system-services.md "Blocks").
   */
  private aborted(blockNum: number, err: Error): void {
    const lost = this.finalWaiters.filter((w) => w.blockNum === blockNum);
    if (lost.length === 0) return;
    this.finalWaiters = this.finalWaiters.filter((w) => w.blockNum !== blockNum);
    const refusal = new ChainError('BLOCK_FAILED', `block ${blockNum} was aborted with its transactions: ${err.message}`);
    for (const w of lost) w.reject(refusal);
  }

  /**
   * After a block (produced, booted or applied) is committed: answers the `final` waiters its
   * commitNum makes irreversible, runs the acceptBlock callbacks and the onBlock hook.
   */
  private committed(closed: ClosedBlock): void {
    const { block, blockId } = closed;
    this.booted = true;
    // Irreversibility never goes back, also when BFT takes over from a CFT set whose headers made it.
    this.consensusCommit = Math.max(this.consensusCommit, this.irreversibleAt(block.header));
    this.answerFinal(this.consensusCommit);
    this.notify(NotifyType.acceptBlock, () => NO_ARGUMENTS);
    this.options.onBlock?.(block.header, blockId);
  }

  /**
   * The irreversible block with `head`, the status row's head, as the head: consensus's commit, or
   * its header's commitNum if further where that counts (not under BFT, docs/p2p.md §5.4).
   */
  private irreversibleAt(head: BlockHeader, status = this.status): number {
    return status ? irreversibleAt(status.consensus, head, this.consensusCommit) : Math.min(head.blockNum, this.consensusCommit);
  }

  /** The blocks the store keeps no undo records for any more: those below the first reversible one, or all. */
  private withoutUndo(): number {
    const [first] = this.store.reversibleBlocks();
    return first !== undefined ? first - 1 : this.status?.head?.header.blockNum ?? 0;
  }

  /** Answers the `final` waiters of blocks up to `irreversible`. */
  private answerFinal(irreversible: number): void {
    const final = this.finalWaiters.filter((w) => w.blockNum <= irreversible);
    this.finalWaiters = this.finalWaiters.filter((w) => w.blockNum > irreversible);
    for (const w of final) w.resolve();
  }

  /**
   * Closes the open block at the end of its slot and opens the next. A block that cannot be
   * opened (no key for its signature, a failing startBlock) is reported and tried again a slot
   * later, so adding the key or unlocking its device resumes production. A block that fails to
   * close (a failing objective onBlock callback) is reported and dropped with its transactions,
   * and the next slot's block is built afresh (docs/system-services.md "Blocks").
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
      this.endSlot();
    }, Math.max(0, closeAt - this.now()));
  }

  /** The slot is over: its block closes and the next opens, once no received block is being verified. */
  private endSlot(): void {
    if (this.receiving) {
      this.waiting = 'slotEnd';
      return;
    }
    if (this.open) this.closeReporting();
    // Closing the block may have started the next one already (consensus made this node lead on it).
    this.start();
  }

  /** What came while a received block was verified is done now (a block still open is ours, the received one refused). */
  private doWhatWaited(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting === 'slotEnd') this.endSlot();
    else if (waiting === 'stop' && this.open) this.closeReporting();
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
      // A request the callback took over and left unanswered gets its error, as a failed serveSys's does.
      if (result.sockets) sockets!.settle(result.sockets, result.error?.message);
      if (result.error) this.options.onCallbackError?.(result.error);
    }
  }
}
