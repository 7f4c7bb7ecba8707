// The node's loggers (docs/administration.md §2 "Logger configuration"): built from the `loggers` configuration,
// reconfigured as a whole, and the one place records enter. A reconfiguration keeps a logger
// whose name and type stay the same and updates it in place; since logging and reconfiguring
// both run synchronously on the event loop, every record goes either through the old settings
// or the new ones, never both and never neither.

import { hostname } from 'node:os';
import { SYSTEM_CLOCK, type Clock } from './clock.js';
import { parseLoggersConfig, type LoggerSettings, type SinkSettings } from './config.js';
import type { LogFilter } from './filter.js';
import { ProblemReporter } from './problem-reporter.js';
import type { Channel, LogRecord, Severity } from './record.js';
import { createSink } from './sinks/create-sink.js';
import type { LogSink, SinkEnvironment } from './sinks/sink.js';

export interface LoggingOptions {
  /** The node's directory: relative file names, socket paths and pipe commands start there. */
  readonly directory: string;
  readonly clock?: Clock;
  /** Host, Process and ProcessId of records that do not name their own. */
  readonly host?: string;
  readonly process?: string;
  readonly processId?: number;
  /** Where console loggers and reports of failing loggers write; process.stderr by default. */
  readonly writeStderr?: (text: string) => void;
  /** See SinkEnvironment.closeGraceMs; 5 s by default. */
  readonly closeGraceMs?: number;
}

export type LogListener = (record: LogRecord) => void;

/** Whether a listener may want records of this severity and channel (see LogFilter.mayMatch). */
export type LogInterest = LogFilter['mayMatch'];

/** What a log websocket session needs of Logging. */
export interface LogSubscriptions {
  /**
   * Calls `listener` with every record from now on; returns the function that stops it.
   * `interest` says which records the listener may keep, so others need not be built for it.
   */
  subscribe(listener: LogListener, interest?: LogInterest): () => void;
}

interface Subscription {
  readonly listener: LogListener;
  readonly interest: LogInterest;
}

interface RunningLogger {
  readonly settings: LoggerSettings;
  readonly sink: LogSink<SinkSettings>;
}

export class Logging implements LogSubscriptions {
  private loggers = new Map<string, RunningLogger>();
  private readonly subscriptions = new Set<Subscription>();
  /** Closing sinks of loggers that were removed or changed type. */
  private readonly closing = new Set<Promise<void>>();
  private acceptedConfig: unknown;
  private readonly clock: Clock;
  private readonly writeStderr: (text: string) => void;
  private readonly defaults: Pick<LogRecord, 'Host' | 'Process' | 'ProcessId'>;
  // Buffered file records are written even when the process exits without closing Logging.
  private readonly flushOnExit = () => this.flush();

  /** Starts the loggers of a `loggers` configuration; throws LOG_BAD_CONFIG. */
  constructor(loggersConfig: unknown, private readonly options: LoggingOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.writeStderr = options.writeStderr ?? ((text) => void process.stderr.write(text));
    this.defaults = {
      Host: options.host ?? hostname(),
      Process: options.process ?? 'tsibase',
      ProcessId: options.processId ?? process.pid,
    };
    this.reconfigure(loggersConfig);
    process.on('exit', this.flushOnExit);
  }

  /** The configuration last accepted, as it was given. */
  get loggersConfig(): unknown {
    return this.acceptedConfig;
  }

  /**
   * Replaces the configuration. Checks all of it first (throwing LOG_BAD_CONFIG and changing
   * nothing); then updates loggers kept under the same name and type, and closes and opens the
   * others.
   */
  reconfigure(loggersConfig: unknown): void {
    const settings = parseLoggersConfig(loggersConfig, this.options.directory);
    const next = new Map<string, RunningLogger>();
    for (const logger of settings) {
      const old = this.loggers.get(logger.name);
      if (old && old.settings.sink.type === logger.sink.type) {
        old.sink.update(logger.sink);
        next.set(logger.name, { settings: logger, sink: old.sink });
        continue;
      }
      if (old) this.retire(old);
      next.set(logger.name, { settings: logger, sink: createSink(logger.sink, this.environment(logger.name)) });
    }
    for (const [name, old] of this.loggers) if (!next.has(name)) this.retire(old);
    this.loggers = next;
    this.acceptedConfig = loggersConfig;
  }

  /**
   * False when no logger and no subscriber could take a record of this severity and channel, so
   * the caller can skip building it; true when one may. A subscriber that stated no interest
   * makes it true.
   */
  accepts(severity: Severity, channel: Channel): boolean {
    for (const { interest } of this.subscriptions) {
      if (interest(severity, channel)) return true;
    }
    for (const { settings } of this.loggers.values()) {
      if (settings.filter.mayMatch(severity, channel)) return true;
    }
    return false;
  }

  /** Sends a record to every logger whose filter it passes and to every subscriber. */
  log(record: LogRecord): void {
    const complete: LogRecord = { ...this.defaults, TimeStamp: new Date(this.clock.now()), ...record };
    for (const { settings, sink } of this.loggers.values()) {
      if (settings.filter(complete)) sink.write(settings.format(complete));
    }
    for (const { listener } of this.subscriptions) {
      try {
        listener(complete);
      } catch (err) {
        this.writeStderr(`tsibase: log subscriber failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  }

  message(severity: Severity, channel: Channel, message: string, attributes: LogRecord = {}): void {
    this.log({ ...attributes, Message: message, Severity: severity, Channel: channel });
  }

  info(channel: Channel, message: string, attributes?: LogRecord): void {
    this.message('info', channel, message, attributes);
  }

  warning(channel: Channel, message: string, attributes?: LogRecord): void {
    this.message('warning', channel, message, attributes);
  }

  error(channel: Channel, message: string, attributes?: LogRecord): void {
    this.message('error', channel, message, attributes);
  }

  subscribe(listener: LogListener, interest: LogInterest = () => true): () => void {
    const subscription: Subscription = { listener, interest };
    this.subscriptions.add(subscription);
    return () => this.subscriptions.delete(subscription);
  }

  /** Writes every buffered record now. */
  flush(): void {
    for (const { sink } of this.loggers.values()) sink.flush?.();
  }

  /** Closes every logger; resolves when their output is complete (pipe commands have exited). */
  async close(): Promise<void> {
    process.off('exit', this.flushOnExit);
    for (const logger of this.loggers.values()) this.retire(logger);
    this.loggers = new Map();
    await Promise.all(this.closing);
  }

  private retire(logger: RunningLogger): void {
    const done = logger.sink.close().then(
      () => undefined,
      (err) => this.writeStderr(`tsibase: logger '${logger.settings.name}': closing: ${err instanceof Error ? err.message : String(err)}\n`),
    ).finally(() => this.closing.delete(done));
    this.closing.add(done);
  }

  private environment(name: string): SinkEnvironment {
    return {
      directory: this.options.directory,
      clock: this.clock,
      writeStderr: this.writeStderr,
      problems: new ProblemReporter(name, this.writeStderr),
      closeGraceMs: this.options.closeGraceMs ?? 5000,
    };
  }
}
