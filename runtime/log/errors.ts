import { TsibaseError } from '../../host-api/errors.js';

export type LogErrorCode =
  | 'LOG_BAD_FILTER'   // a filter expression that does not parse (message names the offset)
  | 'LOG_BAD_FORMAT'   // a format string or object that does not parse
  | 'LOG_BAD_CONFIG';  // a `loggers` configuration refused as a whole (message names logger and field)

/** The logging subsystem refused a filter, a format or a logger configuration. */
export class LogError extends TsibaseError {
  declare readonly code: LogErrorCode;

  constructor(code: LogErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
