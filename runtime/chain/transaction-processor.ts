import { bytesToHex } from '../../host-api/encoding/hex.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { accountNumberFromName, methodNumberFromName } from '../../host-api/names/index.js';
import {
  SignedTransaction, Transaction, type ActionTrace, type TransactionTrace,
} from '../../host-api/types/index.js';
import { ProcessTransactionArgs, VerifyArgs } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import { SignatureVerdicts } from '../crypto/signature-verdicts.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import { ExecutionContext } from '../wasm/execution-context.js';
import { ChainError } from './errors.js';

export const TRANSACT = accountNumberFromName('transact');
const VERIFY_SYS = methodNumberFromName('verifySys');

/** A signed transaction decoded far enough to process it. */
export interface DecodedTransaction {
  /** The packed Transaction (its id is the SHA-256 of these bytes). */
  readonly transaction: Uint8Array;
  readonly id: Uint8Array;
  readonly claims: Transaction['claims'];
  readonly proofs: Uint8Array[];
  readonly expiration: bigint;
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
  const t = transaction ?? decodeOrRefuse(() => Transaction.unpack(signed.transaction));
  return {
    transaction: signed.transaction,
    id: sha256(signed.transaction),
    claims: t.claims,
    proofs: signed.proofs,
    expiration: t.tapos.expiration,
  };
}

/** Decodes a packed SignedTransaction; throws TRANSACTION_INVALID naming the problem. */
export function decodeTransaction(packed: Uint8Array): DecodedTransaction {
  return decodeSigned(decodeOrRefuse(() => SignedTransaction.unpack(packed)));
}

/**
 * Runs transactions: proofs in verify contexts (docs/chain.md §3), then transact's
 * processTransaction in a transaction context inside an undo level, so a failure leaves no
 * trace in state.
 */
export class TransactionProcessor {
  constructor(private readonly store: Store, private readonly engine: Engine) {}

  /**
   * Checks every proof with its claim's verify service; throws TRANSACTION_PROOFS. The signature
   * checks a verify service is expected to make (claim data as the key, the proof as the
   * signature, over the transaction id) run first on the signature worker, so the verify services
   * find their verdicts instead of computing them on the chain thread.
   */
  async verifyProofs(trx: DecodedTransaction): Promise<void> {
    if (trx.proofs.length !== trx.claims.length) throw new ChainError('TRANSACTION_PROOFS', 'proofs and claims must have same size');
    if (trx.claims.length === 0) return;
    const signatureVerdicts = await SignatureVerdicts.compute(trx.claims.map((claim, i) => ({
      key: claim.rawData, digest: trx.id, signedData: trx.transaction, signature: trx.proofs[i]!,
    })));
    const signedData = new Map([[bytesToHex(trx.id), trx.transaction]]);
    trx.claims.forEach((claim, i) => {
      const ctx = new ExecutionContext({ mode: 'verify', store: this.store, engine: this.engine, signedData, signatureVerdicts });
      try {
        ctx.runAction({
          sender: 0n,
          service: claim.service,
          method: VERIFY_SYS,
          rawData: VerifyArgs.pack({ transactionHash: trx.id, claim, proof: trx.proofs[i]! }),
        });
      } catch (err) {
        throw new ChainError('TRANSACTION_PROOFS', (err as Error).message);
      } finally {
        ctx.dispose();
      }
    });
  }

  /**
   * Applies a transaction whose proofs verified: success keeps its writes in the current block,
   * failure rolls them back. The trace tells which (its `error`).
   */
  apply(trx: DecodedTransaction): TransactionTrace {
    const ctx = new ExecutionContext({ mode: 'transaction', store: this.store, engine: this.engine });
    const checkpoint = this.store.checkpoint();
    let error: string | null = null;
    try {
      ctx.runExport(TRANSACT, 'processTransaction', ProcessTransactionArgs.pack({ transaction: trx.transaction, id: trx.id, speculative: false }));
    } catch (err) {
      error = (err as Error).message;
    } finally {
      ctx.dispose();
    }
    if (error !== null) this.store.rollback(checkpoint);
    else this.store.release(checkpoint);
    return { actionTraces: ctx.actionTraces as ActionTrace[], error };
  }
}
