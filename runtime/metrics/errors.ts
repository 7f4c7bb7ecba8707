import { TsibaseError } from '../../host-api/errors.js';

export type MetricsErrorCode =
  | 'METRICS_BAD_PROC'     // /proc text that does not have the documented format (message names file and line)
  | 'METRICS_BAD_FIGURE'   // a figure handed in by the node that is not a non-negative safe integer
  | 'METRICS_BAD_GAUGE';   // an extra gauge with an invalid or reserved name

/** The performance report or the metrics could not be produced; the message says which input was wrong. */
export class MetricsError extends TsibaseError {
  declare readonly code: MetricsErrorCode;

  constructor(code: MetricsErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
