import { TransactionTrace } from '../../host-api/types/index.js';
import type { TransactionIntake } from '../chain/interface.js';
import { ChainError } from '../chain/errors.js';
import { hasForeignOrigin } from './admin-access.js';
import { isOctetStream } from './media-type.js';
import { json, text } from './replies.js';
import type { WireRequest, WireResponse } from './wire/index.js';

/**
 * POST /native/admin/push_boot (docs/chain.md §4, docs/http.md §3): a fracpack List<SignedTransaction>
 * becomes block 2. Refusals of the chain (booted already, no producer) and failed boot
 * transactions come back as a 200 trace whose `error` says why; an undecodable body is a 500.
 */
export async function pushBoot(chain: TransactionIntake, req: WireRequest, res: WireResponse): Promise<void> {
  if (!isOctetStream(req)) {
    return text(res, 415, 'Content-Type must be application/octet-stream\n');
  }
  if (hasForeignOrigin(req)) {
    return text(res, 400, 'Cross origin request refused');
  }
  const body = req.body;
  try {
    json(res, 200, TransactionTrace.toJson(chain.boot(body)));
  } catch (err) {
    if (!(err instanceof ChainError)) throw err;
    if (err.code === 'TRANSACTION_INVALID' || err.code === 'TRANSACTION_PROOFS') return text(res, 500, err.message);
    json(res, 200, { actionTraces: [], error: err.message });
  }
}
