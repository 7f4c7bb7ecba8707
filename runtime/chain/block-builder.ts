import { DbId } from '../../host-api/abi/databases.js';
import { ENFORCED_WASM_CONFIG } from '../../host-api/abi/wasm-config.js';
import { databaseStatusKey } from '../../host-api/abi/keys.js';
import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { merkleRoot } from '../../host-api/chain/merkle.js';
import { compileSchema } from '../../host-api/fracpack/index.js';
import { methodNumberFromName } from '../../host-api/names/index.js';
import { NO_ARGUMENTS, type Block, type BlockHeader, type Consensus, type SignedTransaction } from '../../host-api/types/index.js';
import { JointConsensus, TransactionInfo, type StatusRow } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import { counterIndexOf, readCounter } from '../db/event-counters.js';
import type { Store } from '../db/store.js';
import type { Executor } from '../wasm/executor.js';
import { writeBlock } from './block-log.js';
import type { Signer } from '../keys/signer.js';
import { signBlock } from './block-signing.js';
import { readStatus, writeStatus } from './chain-state.js';
import { ChainError } from './errors.js';
import { TRANSACT, type DecodedTransaction, type TransactionProcessor } from './transaction-processor.js';

const START_BLOCK = methodNumberFromName('startBlock');
const DATABASE_STATUS_KEY = databaseStatusKey();
const ZERO_ID = new Uint8Array(32);
const SECOND = 1_000_000n;
const wire = compileSchema({ Proofs: { List: 'bytes' }, SubjectiveData: { Option: { List: 'bytes' } } });
const Proofs = wire.type('Proofs');
const SubjectiveData = wire.type('SubjectiveData');
// Blocks carry no subjective data yet, so every transaction's subjective-data hash is this one.
const NO_SUBJECTIVE_DATA_HASH = sha256(SubjectiveData.pack([]));

/** The consensus of a new chain: its one producer, with unsigned blocks. */
function initialConsensus(producer: bigint): JointConsensus {
  const current: Consensus = {
    data: { CftConsensus: { producers: [{ name: producer, auth: { service: 0n, rawData: new Uint8Array(0) } }] } },
    services: [],
    wasmConfig: ENFORCED_WASM_CONFIG,
  };
  return { current, next: null };
}

function merkleEventCount(store: Store): bigint {
  return readCounter(store.get(DbId.native, DATABASE_STATUS_KEY), counterIndexOf(DbId.merkleEvent));
}

/**
 * Builds one block on top of the store's state: sets the status row's `current`, runs
 * transact::startBlock (after block 2), applies transactions (failed ones are left out), then
 * computes the roots and the id, writes the block log and the status row, and commits once.
 */
export class BlockBuilder {
  readonly header: BlockHeader;
  private readonly status: StatusRow;
  private readonly included: DecodedTransaction[] = [];
  private readonly merkleEventsAtStart: bigint;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly processor: TransactionProcessor,
    producer: bigint,
    time: bigint,
    /** Signs the block for its producer's claim; absent for unsigned blocks. */
    private readonly signer?: Signer,
  ) {
    const previous = readStatus(store);
    const head = previous?.head ?? null;
    this.header = {
      previous: head ? head.blockId : ZERO_ID,
      blockNum: head ? head.header.blockNum + 1 : 2,
      time,
      producer,
      term: 0,
      commitNum: 0,
      consensusState: ZERO_ID,
      trxMerkleRoot: ZERO_ID,
      eventMerkleRoot: ZERO_ID,
      newConsensus: null,
      authCode: null,
    };
    this.status = previous
      ? { ...previous, current: this.header }
      : { chainId: ZERO_ID, current: this.header, head: null, consensus: initialConsensus(producer) };
    writeStatus(store, this.status);
    this.merkleEventsAtStart = merkleEventCount(store);
  }

  get blockNum(): number {
    return this.header.blockNum;
  }

  /** Runs the start-of-block hook; a failure aborts the block (the caller discards its state). */
  start(): void {
    if (this.header.blockNum <= 2) return;
    const { error } = this.executor.run({ mode: 'transaction', target: { action: { sender: 0n, service: TRANSACT, method: START_BLOCK, rawData: NO_ARGUMENTS } } });
    if (error) throw new ChainError('BLOCK_FAILED', `startBlock of block ${this.header.blockNum} failed: ${error.message}`);
  }

  /** Applies a transaction whose proofs verified; it joins the block when it succeeds. */
  push(trx: DecodedTransaction, trace = this.processor.apply(trx)): typeof trace {
    if (trace.error === null) this.included.push(trx);
    return trace;
  }

  /** The merkle events this block wrote, in id order (failed transactions' were rolled back). */
  private merkleEvents(): Uint8Array[] {
    const events: Uint8Array[] = [];
    for (let id = this.merkleEventsAtStart, end = merkleEventCount(this.store); id < end; id++) {
      events.push(this.store.getSequential(DbId.merkleEvent, id)!);
    }
    return events;
  }

  /** Completes the block: roots, id, block log, signature, status row; one durable commit. */
  finish(): { block: Block; blockId: Uint8Array } {
    const transactions: SignedTransaction[] = this.included.map((t) => ({ transaction: t.transaction, proofs: t.proofs, subjectiveData: [] }));
    const infos = this.included.map((t) =>
      TransactionInfo.pack({ transactionId: t.id, signatureHash: sha256(Proofs.pack(t.proofs)), subjectiveDataHash: NO_SUBJECTIVE_DATA_HASH }),
    );
    const status = readStatus(this.store) ?? this.status;
    const header: BlockHeader = {
      ...this.header,
      commitNum: this.header.blockNum, // one producer: every block is final when committed
      consensusState: sha256(JointConsensus.pack(status.consensus)),
      trxMerkleRoot: merkleRoot(infos, sha256),
      eventMerkleRoot: merkleRoot(this.merkleEvents(), sha256),
    };
    const id = computeBlockId(header);
    const block: Block = { header, transactions };
    writeBlock(this.store, block);
    if (this.signer) signBlock(this.store, header.blockNum, id, this.signer);
    writeStatus(this.store, {
      ...status,
      chainId: header.blockNum === 2 ? id : status.chainId,
      head: { header, blockId: id },
      current: { ...header, previous: id, blockNum: header.blockNum + 1, time: header.time + SECOND, trxMerkleRoot: ZERO_ID, eventMerkleRoot: ZERO_ID },
    });
    this.store.commit();
    return { block, blockId: id };
  }
}
