import type { Clock } from '../clock.js';
import type { ProblemReporter } from '../problem-reporter.js';

/** What a sink may use of the node around it. */
export interface SinkEnvironment {
  /** The node's directory: relative paths and pipe commands start here. */
  readonly directory: string;
  readonly clock: Clock;
  readonly writeStderr: (text: string) => void;
  readonly problems: ProblemReporter;
  /**
   * How long closing waits: for a retired pipe command to exit after EOF before it gets
   * SIGTERM, for a congested local socket to drain before its records are dropped.
   */
  readonly closeGraceMs: number;
}

/** A destination of formatted records; `Settings` is the sink's part of a logger's config. */
export interface LogSink<Settings> {
  /** Takes one formatted record; never throws (failures go to the ProblemReporter). */
  write(text: string): void;
  /** Takes new settings of the same sink type without losing or repeating a record. */
  update(settings: Settings): void;
  /** Writes buffered records now, synchronously (sinks without a buffer leave it out). */
  flush?(): void;
  /** Stops the sink; resolves once everything written has reached its destination. */
  close(): Promise<void>;
}
