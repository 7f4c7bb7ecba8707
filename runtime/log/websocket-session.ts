// One client of the log websocket (docs/administration.md §4.1 rule 5, docs/http.md §8). The session speaks to the
// socket through LogSocketPort, which a `ws` WebSocket satisfies as it is:
//
//   const session = new LogWebSocketSession(logging, ws);
//   ws.on('message', (data) => session.receive(data.toString()));
//   ws.on('close', () => session.detach());
//
// Nothing is sent before the client's first configuration frame; each frame `{"filter"?,
// "format"?}` (other keys ignored) replaces the whole configuration, and a bad one closes the
// socket with 1008 and the error. The node ends sessions with shutdown() (1001) or restart() (1012).

import { LogError } from './errors.js';
import { MATCH_ALL, parseFilter, type LogFilter } from './filter.js';
import { parseFormat, type LogFormat } from './format.js';
import type { LogSubscriptions } from './logging.js';
import type { LogRecord } from './record.js';

export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_SERVICE_RESTART = 1012;

// A close frame's reason is at most 123 bytes of UTF-8 (RFC 6455 §5.5).
const MAX_CLOSE_REASON_BYTES = 123;
// A client that does not keep up loses records rather than growing the node's memory.
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface LogSocketPort {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Bytes accepted by send() but not yet sent, where the transport knows it. */
  readonly bufferedAmount?: number;
}

export class LogWebSocketSession {
  private filter: LogFilter = MATCH_ALL;
  private format: LogFormat | undefined;
  private unsubscribe: (() => void) | undefined;
  private ended = false;

  constructor(private readonly logging: LogSubscriptions, private readonly port: LogSocketPort) {}

  /** A text frame from the client: a new configuration. */
  receive(frame: string): void {
    if (this.ended) return;
    let config: unknown;
    try {
      config = JSON.parse(frame);
    } catch {
      this.end(CLOSE_POLICY_VIOLATION, 'log configuration: not JSON');
      return;
    }
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      this.end(CLOSE_POLICY_VIOLATION, 'log configuration: expected a JSON object');
      return;
    }
    const { filter, format } = config as { filter?: unknown; format?: unknown };
    if (filter !== undefined && typeof filter !== 'string') {
      this.end(CLOSE_POLICY_VIOLATION, 'log configuration: filter must be a string');
      return;
    }
    try {
      const [newFilter, newFormat] = [filter === undefined ? MATCH_ALL : parseFilter(filter), parseFormat(format)];
      [this.filter, this.format] = [newFilter, newFormat];
    } catch (err) {
      if (!(err instanceof LogError)) throw err;
      this.end(CLOSE_POLICY_VIOLATION, err.message);
      return;
    }
    this.unsubscribe ??= this.logging.subscribe(
      (record) => this.deliver(record),
      (severity, channel) => this.filter.mayMatch(severity, channel),
    );
  }

  /** The node is shutting down. */
  shutdown(): void {
    this.end(CLOSE_GOING_AWAY, 'the node is shutting down');
  }

  /** The node is restarting. */
  restart(): void {
    this.end(CLOSE_SERVICE_RESTART, 'the node is restarting');
  }

  /** The socket closed: stop listening for records. */
  detach(): void {
    this.ended = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private deliver(record: LogRecord): void {
    if (!this.format || !this.filter(record)) return;
    if ((this.port.bufferedAmount ?? 0) > MAX_BUFFERED_BYTES) return;
    try {
      this.port.send(this.format(record));
    } catch {
      // The transport is gone; its close event will follow, but no more records either way.
      this.detach();
    }
  }

  private end(code: number, reason: string): void {
    if (this.ended) return;
    this.detach();
    this.port.close(code, truncateUtf8(reason, MAX_CLOSE_REASON_BYTES));
  }
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  // Dropping a partial character at the cut leaves U+FFFD, which is removed.
  return bytes.subarray(0, maxBytes).toString().replace(/\uFFFD$/, '');
}
