import { accountNumberFromName } from '../../host-api/names/index.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import type { SignedBlock, SignedTransaction, TransactionTrace } from '../../host-api/types/index.js';
import { ServeArgs, type StatusRow } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import type { SocketRegistry } from '../wasm/host-state.js';
import { serviceCodeOf } from '../wasm/service-code.js';
import { authBypass } from './auth-bypass.js';
import type { ClosedBlock } from './block-builder.js';
import { eventPosition, eventsSince, type EmittedEvent, type EventPosition } from './event-log.js';
import { BlockImportQueue } from './block-import-queue.js';
import { readBlockHeader, readLogStart } from './block-log.js';
import { BlockProduction } from './block-production.js';
import type { BlockSigners } from './block-signing.js';
import { readStatus } from './chain-state.js';
import { claimVerifierOf } from './claim-verdicts.js';
import { takeOverProduction } from './dev-fork.js';
import { ChainError } from './errors.js';
import { Finality } from './finality.js';
import type { Forwarder } from './forwarded-transactions.js';
import type {
  BlockOrigin, ChainEvents, ChainHead, ChainQueries, ClaimVerifier, EventReader, NetworkChain, ServeOutcome, ServeRequest, TransactionIntake, TransactionOutcomes,
  WaitFor,
} from './interface.js';
import { checkLogin } from './login.js';
import { openSystemAccountsOf } from './open-system-accounts.js';
import { PushPipeline } from './push-pipeline.js';
import { QueryThreads, type QueryThreadFigures } from './query-threads.js';
import { readStoredBlock, type StoredBlock } from './stored-block.js';
import { SubjectiveCallbacks } from './subjective-callbacks.js';
import { TransactionProcessor } from './transaction-processor.js';

const HTTP = accountNumberFromName('http');
const INSTANT_TIME_STEP_US = 1000n;

/** What a development fork answers other nodes' blocks: its own are valid on it alone, and theirs would undo it. */
function devForkRefusal(): ChainError {
  return new ChainError('CHAIN_DEV_FORK', 'this node runs a development fork (tsibase dev --fork): it takes no blocks from other nodes');
}

export interface ChainOptions extends ChainEvents {
  /** Account that produces blocks; empty or absent = this node does not produce. */
  readonly producer?: string;
  /** Block interval in milliseconds (1 s by default); not with instantBlocks. */
  readonly blockIntervalMs?: number;
  /**
   * Instant production (docs/chain.md §1.3, a development chain's): a block for each pushed
   * transaction, closed as soon as it is applied, and no blocks while none comes.
   */
  readonly instantBlocks?: boolean;
  /** Milliseconds since 1970 (tests may pass their own clock). */
  readonly now?: () => number;
  /**
   * Blocks close only when `produceBlock` says, never at the end of a slot (a chain in a test,
   * whose clock is its own): pushed transactions wait in the open block until then.
   */
  readonly manualBlocks?: boolean;
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
  /**
   * A development fork of another chain's state (docs/chain.md §9), which only `tsibase dev
   * --fork` asks for (no configuration or request reaches it): the auth services are bypassed
   * (auth-bypass.ts), `producer` is made the sole producer (dev-fork.ts), and blocks from other
   * nodes are refused.
   */
  readonly devFork?: boolean;
  /**
   * Threads that run the http service's serve (docs/serving.md §10), off this thread; 0 or absent
   * runs every query here. Only a store that shares its reads (LmdbStore) can have them.
   */
  readonly queryThreads?: number;
}

/**
 * A chain (docs/chain.md §1), the facade the rest of the node sees it through (interface.ts, as
 * Lodestar's chain/interface.ts over its parts): production (block-production.ts: the slot timer,
 * open and close, the leader term), finality (finality.ts: the commit, irreversibility and its
 * waiters), the import queue (block-import-queue.ts) and transaction intake (push-pipeline.ts:
 * push, forward, speculate). As its producer it boots block 2 and keeps one block open that
 * pushed transactions apply to at once; as a follower it applies the blocks peers send (docs/p2p.md
 * §3.4). Every committed block, produced or applied, is told once: `committed(block, origin)`.
 */
export class Chain implements NetworkChain, TransactionIntake, ChainQueries, EventReader {
  readonly claims: ClaimVerifier;
  private readonly executor: Executor;
  private readonly processor: TransactionProcessor;
  private readonly finality: Finality;
  private readonly production: BlockProduction;
  private readonly pushes: PushPipeline;
  private readonly imports: BlockImportQueue;
  private readonly callbacks: SubjectiveCallbacks;
  private readonly queries: QueryThreads | undefined;
  /** Whether block 2 exists; a chain never goes away, so it is read once and then only set. */
  private booted: boolean;
  private readonly now: () => number;

  constructor(private readonly store: Store, private readonly engine: Engine, private readonly options: ChainOptions = {}) {
    this.executor = new Executor(store, engine);
    this.processor = new TransactionProcessor(store, this.executor, options.devFork ? authBypass : undefined);
    if (options.devFork && options.producer) takeOverProduction(store, accountNumberFromName(options.producer));
    this.claims = claimVerifierOf(this.executor);
    // Under instant production blocks are at least a millisecond apart (their times must grow).
    const intervalUs = options.instantBlocks ? INSTANT_TIME_STEP_US : BigInt(options.blockIntervalMs ?? 1000) * 1000n;
    const now = (this.now = options.now ?? Date.now);
    this.booted = readStatus(store)?.head != null;
    const hasChain = () => this.booted;
    this.finality = new Finality(store);
    this.callbacks = new SubjectiveCallbacks(store, this.executor, options.sockets, options.onCallbackError);
    this.production = new BlockProduction(store, this.executor, this.processor, this.finality, {
      producer: options.producer ?? '', intervalUs, instant: options.instantBlocks, now,
      blockSigners: options.blockSigners, auxConsensusData: options.auxConsensusData, onProductionError: options.onProductionError,
      manualBlocks: options.manualBlocks,
    }, hasChain, (closed) => this.committed(closed, 'produced'));
    this.pushes = new PushPipeline(store, this.executor, this.processor, this.production, this.finality, this.callbacks, {
      now, intervalMs: Number(intervalUs / 1000n), counters: options.counters, forwarder: options.forwarder,
    }, hasChain);
    const shared = options.queryThreads ? store.sharedReads?.() : undefined;
    this.queries = shared && new QueryThreads(shared, options.queryThreads!);
    this.imports = new BlockImportQueue(store, this.executor, this.processor, engine, this.production, this.finality, this.pushes,
      (closed) => this.committed(closed, 'received'));
  }

  get status(): StatusRow | undefined {
    return readStatus(this.store);
  }

  /** Transactions received and not yet applied (the perf report's `unprocessed`). */
  get unprocessed(): number {
    return this.pushes.unprocessed;
  }

  /** True once block 2 exists. */
  get hasChain(): boolean {
    return this.booted;
  }

  /** POST /native/admin/push_boot: builds block 2. Returns the trace (its `error` says if boot failed). */
  boot(body: Uint8Array): TransactionTrace {
    return this.production.boot(body, this.engine);
  }

  /**
   * Applies a block produced elsewhere (docs/p2p.md §3.4): it must be the block after the head
   * (block 2 on an empty node), signed by its producer for the claim in force, with verifying
   * proofs, and executing it must derive its header exactly. The signature and aux data are kept
   * as received. Calls are applied one after another in call order. A block of this node's own
   * that is open when the received one checks out is dropped. A refused block changes nothing
   * and rejects with a ChainError (BLOCK_NOT_NEXT, BLOCK_INVALID, BLOCK_SIGNATURE,
   * BLOCK_TRANSACTION, BLOCK_MISMATCH, BLOCK_FAILED) saying why.
   */
  applyBlock(signed: SignedBlock): Promise<ClosedBlock> {
    if (this.options.devFork) return Promise.reject(devForkRefusal());
    return this.imports.applyBlock(signed);
  }

  /**
   * Takes back the newest blocks until block `blockNum` is the head again (docs/chain.md §1.6),
   * to switch to another fork. Only reversible blocks can go: reverting below the irreversible
   * block rejects with CHAIN_IRREVERSIBLE and changes nothing. Queued with applyBlock.
   */
  revertTo(blockNum: number): Promise<void> {
    if (this.options.devFork) return Promise.reject(devForkRefusal());
    return this.imports.revertTo(blockNum);
  }

  /**
   * A snapshot from a peer replaced the state (docs/p2p.md §7.4): its block is the head and
   * irreversible. Nothing may be applying.
   */
  snapshotLoaded(): void {
    this.booted = true;
    this.finality.snapshotLoaded();
  }

  /** The head block and the last irreversible block number; undefined before block 2. */
  get head(): ChainHead | undefined {
    const status = this.status;
    const head = status?.head;
    return head ? { header: head.header, blockId: head.blockId, irreversible: this.finality.irreversibleAt(head.header, status) } : undefined;
  }

  /** Where the block log starts, when it was cut at a loaded snapshot. */
  get logStart(): number | undefined {
    return readLogStart(this.store);
  }

  /** Block `blockNum` as it is sent to peers: from the block log, its signature and aux data. */
  signedBlockAt(blockNum: number): StoredBlock | undefined {
    return readStoredBlock(this.store, blockNum);
  }

  /** The id of block `blockNum`, if this node has it. */
  blockIdAt(blockNum: number): Uint8Array | undefined {
    const header = readBlockHeader(this.store, blockNum);
    return header ? computeBlockId(header) : undefined;
  }

  /**
   * push_transaction: decodes, verifies proofs, applies the transaction to the open block and
   * answers with its trace: at once (`applied`) or once its block is final (`final`; a failed
   * transaction's trace comes at its expiration).
   */
  push(packed: Uint8Array, waitFor: WaitFor = 'final'): Promise<TransactionTrace> {
    return this.pushes.push(packed, waitFor);
  }

  /** Checks a login transaction against the current state (docs/chain.md §7); returns the user. */
  login(signed: SignedTransaction, rootHost: string): Promise<string> {
    return checkLogin(this.executor, this.processor, signed, rootHost, Math.floor(this.now() / 1000));
  }

  /** Whether the chain has an http-server service to route requests. */
  get servesHttp(): boolean {
    return serviceCodeOf(this.store, HTTP) !== undefined;
  }

  /**
   * Hands a request to the http service's `serve` export in RPC mode (docs/serving.md §1): on a
   * query thread when there are any (§8), which sees the state this thread sees now; here when
   * there are none, or when the thread hands it back.
   */
  serve({ socket, request, rootHost, user, sockets }: ServeRequest): Promise<ServeOutcome> {
    const rawData = ServeArgs.pack({ socket, request, rootHost, user });
    const runHere = (): ServeOutcome => {
      const { error, sockets: outcome } = this.executor.run({ mode: 'rpc', target: { service: HTTP, export: 'serve', rawData }, sockets });
      return { error, sockets: outcome! };
    };
    return this.queries ? this.queries.serve(socket, rawData, runHere) : Promise.resolve(runHere());
  }

  /** What the query threads did (the perf report), or undefined without any. */
  get queryFigures(): QueryThreadFigures | undefined {
    return this.queries?.figures;
  }

  /** The system accounts anyone may act as (a development chain's); none without the accounts service. */
  openSystemAccounts(): string[] {
    return openSystemAccountsOf(this.executor);
  }

  /** Where the event databases stand now, the open block's writes included. */
  eventPosition(): EventPosition {
    return eventPosition(this.store);
  }

  /** Every event written since `position`. */
  eventsSince(position: EventPosition): EmittedEvent[] {
    return eventsSince(this.store, position);
  }

  /** The account this node produces as ('' = none). */
  get producer(): string {
    return this.production.producer;
  }

  /**
   * Changes the producer name (the `producer` configuration applies at once): the open block
   * is completed under the old name, then production resumes if the new name is active.
   */
  setProducer(name: string): void {
    this.production.setProducer(name);
  }

  /** Starts (or resumes after a restart) block production when this node is an active producer. */
  start(): void {
    this.production.start();
  }

  /**
   * Opens this node's block now if none is open (a chain with `manualBlocks`), so that what runs
   * at a block's start is done before the next push; CHAIN_NO_PRODUCER when it does not produce.
   */
  openBlock(): void {
    this.production.openBlock();
  }

  /**
   * Closes the open block now, opening an empty one first if none is (a chain with
   * `manualBlocks`); a block that cannot be produced throws why (CHAIN_NO_PRODUCER, ...).
   */
  produceBlock(): void {
    this.production.produceBlock();
  }

  /**
   * Consensus drives production from now on (docs/p2p.md §4): this node produces only while it
   * leads a term, and its blocks carry that term and the commit index consensus reached.
   */
  followConsensus(): void {
    this.production.followConsensus();
  }

  /**
   * Consensus elected this node leader of `term` (docs/p2p.md §4 step 7): it produces, and its
   * first block takes the transactions it holds for others and those it passed on itself.
   */
  lead(term: number): void {
    this.production.lead(term);
    if (this.production.produces()) this.pushes.leading();
  }

  /** A producer is reachable that was not: transactions waiting to be in a block are passed on at once. */
  producerReached(): void {
    this.pushes.producerReached();
  }

  /** A transaction another node passed on to the producers ("What we build" 4); the leader's trace, or undefined. */
  passedOn(packed: Uint8Array): Promise<TransactionTrace | undefined> {
    if (this.options.devFork) return Promise.resolve(undefined);
    return this.pushes.passedOn(packed);
  }

  /** A newer term began, or this leader's commits stalled: it stops producing. */
  stopLeading(): void {
    this.production.stopLeading();
  }

  /** Whether this node makes blocks now: an active producer, and the leader when consensus decides. */
  get producing(): boolean {
    return this.production.produces();
  }

  /**
   * Consensus made the blocks up to `num` irreversible here (a leader's commit index, docs/p2p.md
   * §4 step 9): `final` waiters for them are answered, and the next block says so.
   */
  commitTo(num: number): void {
    this.finality.commitTo(num);
  }

  /**
   * Stops production; the open block is completed first, so applied transactions are kept (unless
   * it fails to close: that is reported, as in production).
   */
  stop(): void {
    this.production.stop();
  }

  /** Stops production and the query threads for good, before the store closes: nothing that comes later starts them again. */
  async close(): Promise<void> {
    this.production.close();
    await this.queries?.close();
  }

  /**
   * After a block (produced, booted or applied) is committed: answers the `final` waiters its
   * commitNum makes irreversible, runs the acceptBlock callbacks, and tells it.
   */
  private committed(closed: ClosedBlock, origin: BlockOrigin): void {
    this.booted = true;
    this.finality.committed(closed.block.header);
    this.callbacks.acceptBlock();
    this.options.committed?.(closed, origin);
  }
}
