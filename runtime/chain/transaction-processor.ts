import { FracpackError } from '../../host-api/fracpack/index.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import {
  SignedTransaction, Transaction, type TransactionTrace,
} from '../../host-api/types/index.js';
import { ProcessTransactionArgs } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import type { Store } from '../db/store.js';
import type { AnsweredCalls } from '../wasm/execution-context.js';
import type { Executor } from '../wasm/executor.js';
import { RunModeResults } from '../wasm/run-mode-results.js';
import { firstFailedProof } from './claim-proofs.js';
import { ChainError } from './errors.js';

export const TRANSACT = accountNumberFromName('transact');

/** A signed transaction decoded far enough to process it. */
export interface DecodedTransaction {
  /** The packed Transaction (its id is the SHA-256 of these bytes). */
  readonly transaction: Uint8Array;
  readonly id: Uint8Array;
  readonly claims: Transaction['claims'];
  readonly proofs: Uint8Array[];
  readonly expiration: bigint;
  /**
   * The results of its run-mode calls as a received block carries them (docs/host-abi.md §6);
   * absent where this node runs the transaction first (producing it, or trying it).
   */
  readonly subjectiveData?: readonly Uint8Array[];
}

/** A transaction applied: its trace, and the results of its run-mode calls that the block carries for it. */
export interface AppliedTransaction {
  readonly trace: TransactionTrace;
  readonly subjectiveData: readonly Uint8Array[];
}

/** `decode()`, its fracpack errors as TRANSACTION_INVALID naming the problem. */
function decodeOrRefuse<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof FracpackError) throw new ChainError('TRANSACTION_INVALID', `transaction has invalid format: ${err.message}`);
    throw err;
  }
}

/** A signed transaction as processing takes it; `transaction` is its Transaction when already unpacked. */
export function decodeSigned(signed: SignedTransaction, transaction?: Transaction): DecodedTransaction {
  // Views, not copies: `signed.transaction` is this node's own copy and never changes, and the
  // claims are all that is kept of the unpacked Transaction.
  const t = transaction ?? decodeOrRefuse(() => Transaction.unpack(signed.transaction, { views: true }));
  return {
    transaction: signed.transaction,
    id: sha256(signed.transaction),
    claims: t.claims,
    proofs: signed.proofs,
    expiration: t.tapos.expiration,
  };
}

/**
 * Decodes a packed SignedTransaction pushed to this node; throws TRANSACTION_INVALID naming the
 * problem. Only a block gives a transaction its subjective data: a pushed one that carries some
 * would hand the producer the results of its own run-mode calls, so it is refused.
 */
export function decodeTransaction(packed: Uint8Array): DecodedTransaction {
  const signed = decodeOrRefuse(() => SignedTransaction.unpack(packed));
  if (signed.subjectiveData !== null) throw new ChainError('TRANSACTION_INVALID', 'subjective data should be set by the block producer: push the transaction without it');
  return decodeSigned(signed);
}

/** A transaction of a block, with the subjective data its run-mode calls replay; throws BLOCK_INVALID when it has none. */
export function decodeBlockTransaction(signed: SignedTransaction): DecodedTransaction {
  if (signed.subjectiveData === null) throw new ChainError('BLOCK_INVALID', 'Missing subjective data');
  return { ...decodeSigned(signed), subjectiveData: signed.subjectiveData };
}

/**
 * Runs transactions: proofs in verify contexts (docs/chain.md §3), then transact's
 * processTransaction in a transaction context inside an undo level, so a failure leaves no
 * trace in state.
 */
export class TransactionProcessor {
  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    /** A development fork's auth bypass (auth-bypass.ts); none on any other chain. */
    private readonly answeredCalls?: AnsweredCalls,
  ) {}

  /** Checks every proof with its claim's verify service (claim-proofs.ts); throws TRANSACTION_PROOFS. */
  async verifyProofs(trx: DecodedTransaction): Promise<void> {
    if (trx.proofs.length !== trx.claims.length) throw new ChainError('TRANSACTION_PROOFS', 'proofs and claims must have same size');
    const failed = await firstFailedProof(this.executor, trx.claims.map((claim, i) => ({
      claim, proof: trx.proofs[i]!, signedData: trx.transaction, digest: trx.id,
    })));
    if (failed) throw new ChainError('TRANSACTION_PROOFS', failed.message);
  }

  /**
   * Applies a transaction whose proofs verified: success keeps its writes in the current block,
   * failure rolls them back. The trace tells which (its `error`).
   */
  apply(trx: DecodedTransaction): AppliedTransaction {
    const checkpoint = this.store.checkpoint();
    const results = trx.subjectiveData ? RunModeResults.replaying(trx.subjectiveData) : RunModeResults.recording();
    const { trace, error } = this.run(trx, false, results);
    let failure = error?.message ?? null;
    if (failure === null) {
      try {
        results.checkAllTaken();
      } catch (err) {
        failure = (err as Error).message;
      }
    }
    if (failure !== null) this.store.rollback(checkpoint);
    else this.store.release(checkpoint);
    return { trace: { actionTraces: [trace], error: failure }, subjectiveData: trx.subjectiveData ?? results.recorded };
  }

  /**
   * Runs a transaction speculatively on the current state and undoes it (docs/chain.md §3): what
   * a node that does not produce learns of a transaction before passing it on.
   */
  tryApply(trx: DecodedTransaction): TransactionTrace {
    const checkpoint = this.store.checkpoint();
    try {
      const { trace, error } = this.run(trx, true, RunModeResults.recording());
      return { actionTraces: [trace], error: error?.message ?? null };
    } finally {
      this.store.rollback(checkpoint);
    }
  }

  private run(trx: DecodedTransaction, speculative: boolean, runModeResults: RunModeResults) {
    return this.executor.run({
      mode: speculative ? 'speculative' : 'transaction',
      runModeResults,
      answeredCalls: this.answeredCalls,
      target: { service: TRANSACT, export: 'processTransaction', rawData: ProcessTransactionArgs.pack({ transaction: trx.transaction, id: trx.id, speculative }) },
    });
  }
}
