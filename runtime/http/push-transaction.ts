import { TransactionTrace } from '../../host-api/types/index.js';
import type { TransactionIntake } from '../chain/interface.js';
import { ChainError } from '../chain/errors.js';
import { prefersFracpack } from './accept.js';
import { isOctetStream } from './media-type.js';
import { echoCors, escapeHtml, json, reply, text } from './replies.js';
import type { WireRequest, WireResponse } from './wire/index.js';

/**
 * POST transact.<root>/push_transaction (docs/administration.md §4.2, docs/http.md §5): a packed SignedTransaction,
 * answered with its trace (200 also when the trace holds an error), JSON unless the client
 * prefers fracpack. A proof that does not verify, or proofs and claims of different counts, is
 * answered like the refusals transact makes (TaPoS, expiry, auth): a trace whose `error` says
 * why. A bad wait_for is the client's mistake (400); an undecodable body a 500.
 * `query` is the target's query string (`?wait_for=…`, or empty).
 */
export async function pushTransaction(chain: TransactionIntake, req: WireRequest, res: WireResponse, target: string, query: string): Promise<void> {
  const method = req.method;
  if (method === 'OPTIONS') {
    const origin = req.headers.origin;
    return reply(res, 200, undefined, '', origin ? echoCors(origin) : {});
  }
  if (method !== 'POST') {
    // psibase's text, with its misspelling of "resource" corrected.
    return text(res, 405, `The resource '${escapeHtml(target)}' does not accept the method ${escapeHtml(method)}.`, { Allow: 'POST, OPTIONS' });
  }
  if (!isOctetStream(req)) {
    return text(res, 415, 'Expected fracpack encoded signed transaction (application/octet-stream)');
  }
  const waitFor = new URLSearchParams(query).get('wait_for') || 'final';
  if (waitFor !== 'final' && waitFor !== 'applied') {
    return reply(res, 400, 'text/plain', `wait_for must be final or applied, not '${waitFor}'`);
  }
  const body = req.body;
  let trace: TransactionTrace;
  try {
    trace = await chain.push(body, waitFor);
  } catch (err) {
    if (!(err instanceof ChainError)) throw err;
    if (err.code !== 'TRANSACTION_PROOFS') return text(res, 500, err.message);
    trace = { actionTraces: [], error: err.message };
  }
  if (prefersFracpack(req.headers.accept)) reply(res, 200, 'application/octet-stream', TransactionTrace.pack(trace));
  else json(res, 200, TransactionTrace.toJson(trace));
}
