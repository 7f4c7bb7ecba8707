import { BlockHeader, bytesToHex } from '../../host-api/index.js';
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

/** The chain's transaction outcomes, counted for the perf report and written to the log. */
export function loggedOutcomes(logging: Logging, counters: TransactionCounters): TransactionOutcomes {
  const record = (message: string, id: Uint8Array | undefined) => {
    if (logging.accepts('debug', 'transaction')) logging.message('debug', 'transaction', message, id ? { TransactionId: bytesToHex(id) } : {});
  };
  return {
    received: () => counters.received(),
    succeeded: (id) => {
      counters.succeeded();
      record('transaction applied', id);
    },
    failed: (id, error) => {
      counters.failed();
      record(`transaction failed: ${error}`, id);
    },
  };
}
