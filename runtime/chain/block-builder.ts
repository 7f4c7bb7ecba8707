import { DbId } from '../../host-api/abi/databases.js';
import { GENESIS_WASM_CONFIG } from '../../host-api/abi/wasm-config.js';
import { databaseStatusKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { merkleRoot } from '../../host-api/chain/merkle.js';
import { compileSchema } from '../../host-api/fracpack/index.js';
import { methodNumberFromName } from '../../host-api/names/index.js';
import { NO_ARGUMENTS, type Block, type BlockHeader, type Consensus, type TransactionTrace } from '../../host-api/types/index.js';
import { JointConsensus, TransactionInfo, type StatusRow } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import { counterIndexOf, readCounter } from '../db/event-counters.js';
import type { Store } from '../db/store.js';
import type { Executor } from '../wasm/executor.js';
import { authServicesChange } from './auth-services.js';
import { writeBlock } from './block-log.js';
import { EMPTY_CLAIM, writeBlockSignature } from './block-signing.js';
import { readStatus, writeStatus } from './chain-state.js';
import { irreversibleAt, isSingleProducer, producersOf, startingConsensus } from './consensus.js';
import { writeConsensusChange } from './consensus-changes.js';
import { ChainError } from './errors.js';
import { TRANSACT, type DecodedTransaction, type TransactionProcessor } from './transaction-processor.js';

/** transact's block hooks (docs/chain.md §1.3), by name. */
const HOOKS = { startBlock: methodNumberFromName('startBlock'), endBlock: methodNumberFromName('endBlock') };
const DATABASE_STATUS_KEY = databaseStatusKey();
const ZERO_ID = new Uint8Array(32);
const SECOND = 1_000_000n;
const wire = compileSchema({ Proofs: { List: 'bytes' }, SubjectiveData: { List: 'bytes' } });
const Proofs = wire.type('Proofs');
/** A transaction's subjectiveData as its TransactionInfo hashes it: the list itself, not the optional around it. */
const SubjectiveData = wire.type('SubjectiveData');
/** The hash of an empty subjectiveData, which most transactions have (no run-mode calls): made once. */
const EMPTY_SUBJECTIVE_DATA_HASH = sha256(SubjectiveData.pack([]));

function subjectiveDataHash(subjectiveData: readonly Uint8Array[]): Uint8Array {
  return subjectiveData.length === 0 ? EMPTY_SUBJECTIVE_DATA_HASH : sha256(SubjectiveData.pack(subjectiveData));
}

/** A transaction of the block, with the results of its run-mode calls (docs/host-abi.md §6). */
interface IncludedTransaction {
  readonly trx: DecodedTransaction;
  readonly subjectiveData: readonly Uint8Array[];
}

/** The header fields a block starts from: its producer's choice, or a received block's header. */
export interface BlockStart {
  readonly time: bigint;
  readonly producer: bigint;
  readonly term: number;
  /** The producer's last irreversible block; a single producer's blocks are final at once instead. */
  readonly commitNum: number;
}

/** A block closed and committed, with its id. */
export interface ClosedBlock {
  readonly block: Block;
  readonly blockId: Uint8Array;
}

/** What a block keeps beside its log entry: the producer's signature (empty for unsigned blocks). */
export interface BlockSeal {
  readonly signature: Uint8Array;
}

/**
 * Decides a block's seal once its header and id are derived: signs it (a producer) or checks
 * them against a received block (a follower). Throwing discards the block.
 */
export type Sealer = (header: BlockHeader, blockId: Uint8Array) => BlockSeal;

/**
 * The consensus a new chain starts from (docs/p2p.md §3.4): no producers, services or wasm config
 * yet, and a change pending from block 2 on. Block 2 may set the producers (boot's setProducers
 * does); a change still without producers when block 2 closes names block 2's producer, with
 * unsigned blocks. Block 2's verify services and proof wasm config fill in the rest.
 */
export function genesisConsensus(): JointConsensus {
  const empty: Consensus = { data: { CftConsensus: { producers: [] } }, services: [], wasmConfig: GENESIS_WASM_CONFIG };
  return { current: empty, next: { consensus: empty, blockNum: 2 } };
}

/** A consensus whose producer list is empty gets `producer`, with unsigned blocks (psibase's special case). */
function withProducerIfEmpty(consensus: Consensus, producer: bigint): Consensus {
  if (producersOf(consensus).length > 0) return consensus;
  const producers = [{ name: producer, auth: EMPTY_CLAIM }];
  const data = 'CftConsensus' in consensus.data ? { CftConsensus: { producers } } : { BftConsensus: { producers } };
  return { ...consensus, data };
}

function merkleEventCount(store: Store): bigint {
  return readCounter(store.get(DbId.native, DATABASE_STATUS_KEY), counterIndexOf(DbId.merkleEvent));
}

/**
 * One block's lifecycle on top of the store's head (docs/chain.md §1.3-1.4, docs/p2p.md §3.4),
 * the same whether this node produces the block or applies one it received:
 *
 * - `open` writes the status row's `current` (the block being built) and runs
 *   transact::startBlock (after block 2);
 * - `apply` runs transactions (`include` adds one the node applied itself: genesis);
 * - `close` runs transact::endBlock (after block 2: the objective onBlock callbacks), derives the
 *   header (commitNum, consensus state, merkle roots) and the id, lets the sealer sign or check
 *   it, then writes the block log, the signature and the status row and commits once, durably.
 *
 * Every write stays uncommitted until `close`; any failure on the way (and `discard`) aborts them,
 * so a block is either wholly applied or not at all.
 */
export class BlockBuilder {
  private readonly included: IncludedTransaction[] = [];

  private constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly processor: TransactionProcessor,
    /** The header as opened: previous, number and the start fields; the rest is derived at close. */
    readonly header: BlockHeader,
    private readonly startedSingle: boolean,
    private readonly merkleEventsAtStart: bigint,
    /** The store's code rows version at open: unchanged at close means the verify services are too. */
    private readonly codeRowsAtStart: number,
  ) {}

  /** Opens the block after the head; throws (with nothing written) when it cannot start. */
  static open(store: Store, executor: Executor, processor: TransactionProcessor, start: BlockStart): BlockBuilder {
    const previous = readStatus(store);
    const head = previous?.head ?? null;
    if (head && start.time <= head.header.time) {
      throw new ChainError('BLOCK_INVALID', `block ${head.header.blockNum + 1} is in the past: its time ${start.time} µs is not after the head's ${head.header.time} µs`);
    }
    const consensus = previous && head ? startingConsensus(previous.consensus, head.header) : genesisConsensus();
    // A single producer's block is final when it closes (docs/p2p.md §3.4).
    const single = isSingleProducer(consensus);
    const header: BlockHeader = {
      previous: head ? head.blockId : ZERO_ID,
      blockNum: head ? head.header.blockNum + 1 : 2,
      time: start.time,
      producer: start.producer,
      term: start.term,
      commitNum: start.commitNum,
      consensusState: ZERO_ID,
      trxMerkleRoot: ZERO_ID,
      eventMerkleRoot: ZERO_ID,
      newConsensus: null,
      authCode: null,
    };
    if (single) header.commitNum = header.blockNum - 1;
    writeStatus(store, { chainId: previous?.chainId ?? ZERO_ID, head, consensus, current: header });
    // Genesis has no services list to keep: its block always reads the code rows.
    const codeRowsAtStart = head ? store.nativeRowsVersion : Number.NaN;
    const builder = new BlockBuilder(store, executor, processor, header, single, merkleEventCount(store), codeRowsAtStart);
    try {
      builder.runTransactHook('startBlock');
    } catch (err) {
      store.abort();
      throw err;
    }
    return builder;
  }

  get blockNum(): number {
    return this.header.blockNum;
  }

  /** Applies a transaction whose proofs verified; it joins the block when it succeeds. */
  apply(trx: DecodedTransaction): TransactionTrace {
    const { trace, subjectiveData } = this.processor.apply(trx);
    if (trace.error === null) this.included.push({ trx, subjectiveData });
    return trace;
  }

  /** Adds a transaction the node applied itself, outside transact (genesis, docs/chain.md §4). */
  include(trx: DecodedTransaction): void {
    this.included.push({ trx, subjectiveData: [] });
  }

  /** Drops the block: none of its writes stay. */
  discard(): void {
    this.store.abort();
  }

  /**
   * Completes the block: roots, id, the sealer's signature or check, block log, status row; one
   * durable commit. A sealer that throws discards the block. `committed` is the block consensus
   * made irreversible here: with the header's commitNum where that counts, it bounds the undo
   * records dropped (a BFT header's commitNum alone proves nothing, docs/p2p.md §5.4).
   */
  close(seal: Sealer, committed: number): ClosedBlock {
    try {
      this.runTransactHook('endBlock');
      const { header, status } = this.derivedHeader(readStatus(this.store)!);
      const id = computeBlockId(header);
      const { signature } = seal(header, id);
      // The status row's head leaves authCode out: the block log has it (as psibase does).
      const headHeader = { ...header, authCode: null };
      const block: Block = {
        header,
        transactions: this.included.map(({ trx, subjectiveData }) => ({ transaction: trx.transaction, proofs: trx.proofs, subjectiveData: [...subjectiveData] })),
      };
      writeBlock(this.store, block);
      writeBlockSignature(this.store, header.blockNum, signature);
      writeStatus(this.store, {
        ...status,
        chainId: header.blockNum === 2 ? id : status.chainId,
        head: { header: headHeader, blockId: id },
        current: { ...headHeader, previous: id, blockNum: header.blockNum + 1, time: header.time + SECOND, trxMerkleRoot: ZERO_ID, eventMerkleRoot: ZERO_ID },
      });
      // Above commitNum the block may yet be replaced by another fork: keep its undo (docs/chain.md §1.6).
      this.store.commitBlock(header.blockNum, irreversibleAt(status.consensus, header, committed));
      // A block that ends joint consensus records the change it finishes (docs/p2p.md §3.4).
      const next = status.consensus.next;
      if (next && next.blockNum <= header.commitNum) {
        writeConsensusChange(this.store, { start: next.blockNum, commit: header.commitNum, end: header.blockNum });
        this.store.subjective.commit();
      }
      return { block, blockId: id };
    } catch (err) {
      this.store.abort();
      throw err;
    }
  }

  /**
   * Runs one of transact's block hooks (docs/chain.md §1.3, docs/system-services.md "Blocks"),
   * after the boot block; a failure aborts the block.
   */
  private runTransactHook(name: keyof typeof HOOKS): void {
    if (this.header.blockNum <= 2) return;
    const { error } = this.executor.run({ mode: 'transaction', target: { action: { sender: 0n, service: TRANSACT, method: HOOKS[name], rawData: NO_ARGUMENTS } } });
    if (error) throw new ChainError('BLOCK_FAILED', `${name} of block ${this.header.blockNum} failed: ${error.message}`);
  }

  /**
   * The header as the block's writes determine it (docs/p2p.md §3.4, writeRevision). A change of
   * verify services or proof wasm config starts a change of its own, with the same producers,
   * and puts the new services' code in authCode. A change made in this block goes into the header
   * as newConsensus (a change still without producers names this block's producer) and into the
   * status row.
   */
  private derivedHeader(status: StatusRow): { header: BlockHeader; status: StatusRow } {
    let consensus = status.consensus;
    let authCode: BlockHeader['authCode'] = null;
    const kept = consensus.next?.consensus ?? consensus.current;
    const change = authServicesChange(this.store, kept, this.store.nativeRowsVersion !== this.codeRowsAtStart);
    if (change) {
      authCode = change.authCode;
      consensus = { ...consensus, next: { consensus: { data: kept.data, services: change.services, wasmConfig: change.wasmConfig }, blockNum: this.header.blockNum } };
    }
    let newConsensus: Consensus | null = null;
    if (consensus.next && consensus.next.blockNum === this.header.blockNum) {
      newConsensus = withProducerIfEmpty(consensus.next.consensus, this.header.producer);
      consensus = { ...consensus, next: { ...consensus.next, consensus: newConsensus } };
    }
    let commitNum = this.header.commitNum;
    if (isSingleProducer(consensus)) {
      // Single at the end means single at the start too, unless the block changed the consensus.
      if (!this.startedSingle) throw new ChainError('BLOCK_FAILED', `block ${this.header.blockNum} made a forbidden consensus update`);
      commitNum = this.header.blockNum;
    }
    const header: BlockHeader = {
      ...this.header,
      commitNum,
      consensusState: sha256(JointConsensus.pack(consensus)),
      trxMerkleRoot: merkleRoot(this.included.map(({ trx, subjectiveData }) =>
        TransactionInfo.pack({ transactionId: trx.id, signatureHash: sha256(Proofs.pack(trx.proofs)), subjectiveDataHash: subjectiveDataHash(subjectiveData) }),
      ), sha256),
      eventMerkleRoot: merkleRoot(this.merkleEvents(), sha256),
      newConsensus,
      authCode,
    };
    return { header, status: { ...status, consensus } };
  }

  /** The merkle events this block wrote, in id order (failed transactions' were rolled back). */
  private merkleEvents(): Uint8Array[] {
    const events: Uint8Array[] = [];
    for (let id = this.merkleEventsAtStart, end = merkleEventCount(this.store); id < end; id++) {
      events.push(this.store.getSequential(DbId.merkleEvent, id)!);
    }
    return events;
  }
}
