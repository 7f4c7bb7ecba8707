import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import type { BlockHeader, SignedBlock, SignedTransaction, TransactionTrace } from '../../host-api/types/index.js';
import type { StatusRow } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import type { Executor } from '../wasm/executor.js';
import { keepAuxConsensusData } from './block-aux-data.js';
import { BlockBuilder, type ClosedBlock } from './block-builder.js';
import { blockSignatureFailure } from './block-signing.js';
import { bootBlock } from './boot.js';
import { readStatus } from './chain-state.js';
import { producerClaim } from './consensus.js';
import { ChainError } from './errors.js';
import { decodeBlockTransaction, type DecodedTransaction, type TransactionProcessor } from './transaction-processor.js';

// The receiving side of docs/p2p.md §3.4: a block produced elsewhere is checked against the head
// (number, previous id, the producer's signature under the claim in force, every transaction's
// proofs), then executed through the same BlockBuilder lifecycle a produced block takes, taking
// time, producer, term and commitNum from its header; the header the execution derives must be
// the received one, field for field, or nothing of the block stays.

/** A received block whose position, signature and proofs checked out against the head. */
export interface VerifiedBlock {
  readonly signed: SignedBlock;
  readonly blockId: Uint8Array;
  readonly transactions: readonly DecodedTransaction[];
}

const HEADER_FIELDS = [
  'previous', 'blockNum', 'time', 'producer', 'term', 'commitNum', 'consensusState',
  'trxMerkleRoot', 'eventMerkleRoot', 'newConsensus', 'authCode',
] as const satisfies readonly (keyof BlockHeader)[];

/** Structural equality of decoded fracpack values (bytes, numbers, bigints, null, lists, objects). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && equalBytes(a, b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The names of the header fields in which `derived` differs from `received`. */
function differingHeaderFields(received: BlockHeader, derived: BlockHeader): string[] {
  return HEADER_FIELDS.filter((field) => !sameValue(received[field], derived[field]));
}

/** Throws BLOCK_NOT_NEXT unless the header is the block after the head (block 2 on an empty node). */
function checkFollowsHead(status: StatusRow | undefined, header: BlockHeader): void {
  const head = status?.head ?? null;
  const expectedNum = head ? head.header.blockNum + 1 : 2;
  if (header.blockNum !== expectedNum) {
    throw new ChainError('BLOCK_NOT_NEXT', `block ${header.blockNum} does not follow the head: the next block is ${expectedNum}`);
  }
  const expectedPrevious = head ? head.blockId : new Uint8Array(32);
  if (!equalBytes(header.previous, expectedPrevious)) {
    throw new ChainError('BLOCK_NOT_NEXT',
      `block ${header.blockNum} names previous ${bytesToHex(header.previous)}, but the head's id is ${bytesToHex(expectedPrevious)}`);
  }
}

/** A block-level error for transaction `index` of block `blockNum`. */
function transactionFailure(blockNum: number, index: number, id: Uint8Array | undefined, reason: string): ChainError {
  const which = id ? `transaction ${index} (${bytesToHex(id)})` : `transaction ${index}`;
  return new ChainError('BLOCK_TRANSACTION', `block ${blockNum}: ${which}: ${reason}`);
}

/** A transaction of a received block decoded, with its subjective data and verifying proofs; else why not, as a block error. */
async function checkedTransaction(processor: TransactionProcessor, blockNum: number, index: number, t: SignedTransaction): Promise<DecodedTransaction> {
  let trx: DecodedTransaction | undefined;
  try {
    trx = decodeBlockTransaction(t);
    // Boot transactions carry no proofs; bootBlock refuses any.
    if (blockNum > 2) await processor.verifyProofs(trx);
    return trx;
  } catch (err) {
    if (err instanceof ChainError) throw transactionFailure(blockNum, index, trx?.id, err.message);
    throw err;
  }
}

/**
 * Checks a received block against the current head without changing anything: it follows the
 * head, its producer is in the consensus in force and signed it for its claim (docs/p2p.md §3.3),
 * and every transaction decodes, carries its subjective data and has verifying proofs.
 */
export async function verifyReceivedBlock(store: Store, executor: Executor, processor: TransactionProcessor, signed: SignedBlock): Promise<VerifiedBlock> {
  const { header } = signed.block;
  const status = readStatus(store);
  checkFollowsHead(status, header);
  const blockId = computeBlockId(header);
  const claim = producerClaim(status, header.producer);
  if (!claim) {
    throw new ChainError('BLOCK_INVALID', `block ${header.blockNum}: '${accountNameFromNumber(header.producer)}' is not a producer of the consensus in force`);
  }
  const badSignature = await blockSignatureFailure(executor, claim, blockId, signed.signature);
  if (badSignature) {
    throw new ChainError('BLOCK_SIGNATURE',
      `block ${header.blockNum}: the signature of producer '${accountNameFromNumber(header.producer)}' does not verify: ${badSignature.message}`);
  }
  // Every transaction's proofs are asked for in this one turn, so the signature worker checks
  // them as one batch instead of a round trip each; the first failure in block order is the one told.
  const checked = await Promise.allSettled(signed.block.transactions.map((t, i) => checkedTransaction(processor, header.blockNum, i, t)));
  const transactions = checked.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  return { signed, blockId, transactions };
}

/** A received block, committed, with the traces its transactions got here (in block order; none for genesis). */
export interface ReplayedBlock extends ClosedBlock {
  readonly traces: readonly TransactionTrace[];
}

/**
 * Executes a verified block on the head it was verified against and commits it, keeping its
 * signature and aux data as received. Any failure leaves the store as it was and says why.
 * `committed` is the block consensus made irreversible here (BlockBuilder.close).
 */
export function replayBlock(store: Store, executor: Executor, processor: TransactionProcessor, engine: Engine, verified: VerifiedBlock, committed: number): ReplayedBlock {
  const { signed } = verified;
  const received = signed.block.header;
  checkFollowsHead(readStatus(store), received);
  const builder = BlockBuilder.open(store, executor, processor, received);
  const traces: TransactionTrace[] = [];
  try {
    if (received.blockNum === 2) {
      const trace = bootBlock(builder, store, engine, signed.block.transactions);
      if (trace.error !== null) throw new ChainError('BLOCK_TRANSACTION', `block 2: a boot transaction failed: ${trace.error}`);
    } else {
      for (const [i, trx] of verified.transactions.entries()) {
        const trace = builder.apply(trx);
        if (trace.error !== null) throw transactionFailure(received.blockNum, i, trx.id, trace.error);
        traces.push(trace);
      }
    }
  } catch (err) {
    builder.discard();
    throw err;
  }
  const closed = builder.close((derived, id) => {
    const fields = differingHeaderFields(received, derived);
    if (fields.length > 0 || !equalBytes(id, verified.blockId)) {
      throw new ChainError('BLOCK_MISMATCH',
        `block ${received.blockNum}: blockId does not match: executing it derives ${bytesToHex(id)}, not ${bytesToHex(verified.blockId)} (differing: ${fields.join(', ') || 'none'})`);
    }
    return { signature: signed.signature };
  }, committed);
  keepAuxConsensusData(store, closed.blockId, signed.auxConsensusData);
  return { ...closed, traces };
}
