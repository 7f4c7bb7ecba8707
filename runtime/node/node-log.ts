import { BlockHeader, TransactionTrace, bytesToHex } from '../../host-api/index.js';
import { actionName, failingPath, renderTrace } from '../../host-api/traces/render-trace.js';
import type { TransactionTraceJson } from '../../host-api/traces/trace-json.js';
import type { TransactionOutcomes } from '../chain/interface.js';
import type { WireRequest, WireResponse } from '../http/wire/index.js';
import type { Logging } from '../log/index.js';
import type { TransactionCounters } from '../metrics/transaction-counters.js';

// The records the node writes about its own work, with the attributes of docs/http.md §8 (Request,
// Response, BlockId, BlockHeader, TransactionId) so filters and formats can select on them.

// Request, transaction and block records are built only when a logger or log socket may take
// them (the default console logger takes no debug ones): they would otherwise cost every
// request, transaction or block.

/** One record per answered HTTP request. */
export function logRequest(logging: Logging, req: WireRequest, res: WireResponse, micros: number): void {
  const remote = req.socket.remoteAddress;
  logging.message('debug', 'http', `${req.method} ${req.url} ${res.statusCode}`, {
    ...(remote !== undefined ? { RemoteEndpoint: `${remote}:${req.socket.remotePort}` } : {}),
    Request: { Method: req.method, Target: req.url, Host: req.headers.host ?? '' },
    Response: { Status: res.statusCode, Bytes: res.bodyLength, Time: micros },
  });
}

/**
 * A record per committed block: info every `infoInterval` blocks (every block by default, as
 * psibase logs them), debug for the blocks between.
 */
export function logBlock(logging: Logging, header: BlockHeader, id: Uint8Array, infoInterval = 1): void {
  const summary = header.blockNum % infoInterval === 0;
  const severity = summary ? 'info' : 'debug';
  if (!logging.accepts(severity, 'block')) return;
  const message = infoInterval > 1 && summary ? `committed block ${header.blockNum} (a line every ${infoInterval} blocks)` : `committed block ${header.blockNum}`;
  logging.message(severity, 'block', message, {
    BlockId: bytesToHex(id),
    BlockHeader: BlockHeader.toJson(header) as Record<string, unknown>,
  });
}

/**
 * A failed transaction: its error and the action where it arose at info, the actions it failed
 * through (the trace's `stack` form, host-api/traces/render-trace.ts) at debug.
 */
function logFailure(logging: Logging, id: Uint8Array | undefined, error: string, trace: TransactionTrace | undefined): void {
  if (!logging.accepts('info', 'transaction')) return;
  const attributes = id ? { TransactionId: bytesToHex(id) } : {};
  const json = trace && (TransactionTrace.toJson(trace) as unknown as TransactionTraceJson);
  const path = json ? failingPath(json.actionTraces) : [];
  const failing = path[path.length - 1];
  logging.message('info', 'transaction', `transaction failed: ${error}${failing ? ` (in ${actionName(failing.action)})` : ''}`, attributes);
  if (path.length > 0 && logging.accepts('debug', 'transaction')) logging.message('debug', 'transaction', `transaction failed in:\n${renderTrace(json!, 'stack')}`, attributes);
}

/** The chain's transaction outcomes, counted for the perf report and written to the log. */
export function loggedOutcomes(logging: Logging, counters: TransactionCounters): TransactionOutcomes {
  return {
    received: () => counters.received(),
    succeeded: (id) => {
      counters.succeeded();
      if (logging.accepts('debug', 'transaction')) logging.message('debug', 'transaction', 'transaction applied', { TransactionId: bytesToHex(id) });
    },
    failed: (id, error, trace) => {
      counters.failed();
      logFailure(logging, id, error, trace);
    },
  };
}
