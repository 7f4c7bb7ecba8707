import { accountNameFromNumber } from '../../host-api/names/index.js';
import { GenesisActionData, SignedTransactionList, Transaction, type SignedTransaction, type TransactionTrace } from '../../host-api/types/index.js';
import type { Store } from '../db/store.js';
import { sha256 } from '../crypto/sha256.js';
import { AdmissionError } from '../wasm/admission/index.js';
import type { Engine } from '../wasm/engine.js';
import { readServiceCode, writeServiceCode } from '../wasm/service-code.js';
import type { BlockBuilder } from './block-builder.js';
import { ChainError } from './errors.js';
import { decodeBlockTransaction, decodeSigned, type DecodedTransaction } from './transaction-processor.js';

/** Splits a push_boot body (fracpack List<SignedTransaction>) into its signed transactions. */
export function splitBootList(body: Uint8Array): SignedTransaction[] {
  try {
    return SignedTransactionList.unpack(body);
  } catch (err) {
    throw new ChainError('TRANSACTION_INVALID', `boot transactions have invalid format: ${(err as Error).message}`);
  }
}

/** Admits a genesis service's code as setcode's writes are (code the node would never run is refused). */
function admitGenesisCode(engine: Engine, name: string, code: Uint8Array): void {
  if (code.length === 0) return;
  try {
    engine.admitCode(sha256(code), code);
  } catch (err) {
    if (err instanceof AdmissionError) throw new ChainError('TRANSACTION_INVALID', `genesis: the code of service '${name}' is refused: ${err.message}`);
    throw err;
  }
}

/** Genesis (docs/chain.md §4): the node itself installs the listed services' code; no wasm runs. */
function applyGenesis(store: Store, engine: Engine, trx: DecodedTransaction): TransactionTrace {
  const transaction = Transaction.unpack(trx.transaction);
  if (transaction.actions.length !== 1) {
    throw new ChainError('TRANSACTION_INVALID', `the genesis transaction must hold one action, not ${transaction.actions.length}`);
  }
  const action = transaction.actions[0]!;
  const genesis = GenesisActionData.unpack(action.rawData);
  for (const service of genesis.services) {
    const name = accountNameFromNumber(service.service);
    if (service.service === 0n) throw new ChainError('TRANSACTION_INVALID', 'genesis: a service account may not be empty');
    if (readServiceCode(store, service.service)) throw new ChainError('TRANSACTION_INVALID', `genesis: account '${name}' already has code`);
    if (service.vmType !== 0 || service.vmVersion !== 0) throw new ChainError('TRANSACTION_INVALID', `genesis: service '${name}' has vmType/vmVersion other than 0`);
    admitGenesisCode(engine, name, service.code);
    writeServiceCode(store, service.service, service.code, service.flags);
  }
  return {
    actionTraces: [{ action, rawRetval: new Uint8Array(0), innerTraces: [], totalTime: 0n, error: null }],
    error: null,
  };
}

/**
 * Applies the boot transactions to block 2, in order: genesis natively, the rest through
 * transact. Stops at the first failure; the trace of the failing (or last) transaction is
 * returned, and a failed boot block must be discarded.
 */
export function bootBlock(builder: BlockBuilder, store: Store, engine: Engine, signedTransactions: SignedTransaction[]): TransactionTrace {
  if (signedTransactions.length === 0) throw new ChainError('TRANSACTION_INVALID', 'push_boot needs at least the genesis transaction');
  // Pushed boot transactions run first here; a received boot block's replay its run-mode calls' results.
  const transactions = signedTransactions.map((t) => (t.subjectiveData === null ? decodeSigned(t) : decodeBlockTransaction(t)));
  if (transactions.some((t) => t.proofs.length > 0)) {
    throw new ChainError('TRANSACTION_PROOFS', 'boot transactions may not carry proofs');
  }
  let trace = applyGenesis(store, engine, transactions[0]!);
  builder.include(transactions[0]!);
  for (const trx of transactions.slice(1)) {
    trace = builder.apply(trx);
    if (trace.error !== null) return trace;
  }
  return trace;
}
