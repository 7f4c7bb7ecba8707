// The node's logging subsystem: records, filters, formats, loggers and log websocket sessions.
export type { Clock } from './clock.js';
export { LogError, type LogErrorCode } from './errors.js';
export { MATCH_ALL, parseFilter, type LogFilter } from './filter.js';
export { JSON_FORMAT, parseFormat, type LogFormat } from './format.js';
export { Logging, type LogListener, type LogSubscriptions, type LoggingOptions } from './logging.js';
export {
  CHANNELS, SEVERITIES, formatTimeStamp, recordToJson,
  type Channel, type LogRecord, type RequestAttributes, type ResponseAttributes, type Severity,
} from './record.js';
export {
  CLOSE_GOING_AWAY, CLOSE_POLICY_VIOLATION, CLOSE_SERVICE_RESTART, LogWebSocketSession, type LogSocketPort,
} from './websocket-session.js';
