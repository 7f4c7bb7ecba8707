// The `loggers` configuration (docs/administration.md §2 "Logger configuration"): an object with one logger per
// field. Everything is checked before anything runs, so a bad config changes nothing; unknown
// fields are ignored because the configuration may gain fields at any time.

import { resolve } from 'node:path';
import { LogError } from './errors.js';
import { FileNamePattern } from './file-names.js';
import { MATCH_ALL, parseFilter, type LogFilter } from './filter.js';
import { parseFormat, type LogFormat } from './format.js';
import { parseRotationTime, type RotationSchedule } from './iso-time.js';

export interface ConsoleSettings {
  readonly type: 'console';
}

export interface FileSettings {
  readonly type: 'file';
  readonly filename: FileNamePattern;
  readonly target: FileNamePattern | undefined;
  readonly rotationSize: number | undefined;
  readonly rotationTime: RotationSchedule | undefined;
  readonly maxSize: number | undefined;
  readonly maxFiles: number | undefined;
  readonly flush: boolean;
}

export interface LocalSettings {
  readonly type: 'local';
  /** Absolute path of the datagram socket. */
  readonly path: string;
}

export interface PipeSettings {
  readonly type: 'pipe';
  readonly command: string;
}

export type SinkSettings = ConsoleSettings | FileSettings | LocalSettings | PipeSettings;

export interface LoggerSettings {
  readonly name: string;
  readonly filter: LogFilter;
  readonly format: LogFormat;
  readonly sink: SinkSettings;
}

// sockaddr_un holds 108 bytes including the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 107;

// A pipe has no framing of its own, so its default format ends each JSON record with a newline.
const JSON_LINES_FORMAT = '{Json}\n';

/** Checks a `loggers` value (undefined means none); throws LOG_BAD_CONFIG naming logger and field. */
export function parseLoggersConfig(config: unknown, directory: string): LoggerSettings[] {
  if (config === undefined || config === null) return [];
  if (!isObject(config)) throw new LogError('LOG_BAD_CONFIG', 'loggers: expected an object with one field per logger');
  return Object.entries(config).map(([name, value]) => new LoggerReader(name, value, directory).read());
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

class LoggerReader {
  private readonly fields: Record<string, unknown>;

  constructor(private readonly name: string, value: unknown, private readonly directory: string) {
    if (!isObject(value)) throw new LogError('LOG_BAD_CONFIG', `logger '${name}': expected an object`);
    this.fields = value;
  }

  read(): LoggerSettings {
    const filterText = this.optionalString('filter');
    const formatValue = this.fields.format;
    const sink = this.readSink();
    const defaultFormat = sink.type === 'pipe' ? JSON_LINES_FORMAT : undefined;
    return {
      name: this.name,
      filter: filterText === undefined ? MATCH_ALL : this.parsed('filter', () => parseFilter(filterText)),
      format: this.parsed('format', () => parseFormat(formatValue ?? defaultFormat)),
      sink,
    };
  }

  private readSink(): SinkSettings {
    const type = this.fields.type;
    switch (type) {
      case 'console':
        return { type };
      case 'file': {
        const filename = this.requiredString('filename');
        return {
          type,
          filename: this.parsed('filename', () => new FileNamePattern(filename, this.directory)),
          target: this.optionalPattern('target'),
          rotationSize: this.optionalPositiveNumber('rotationSize'),
          rotationTime: this.optionalRotationTime(),
          maxSize: this.optionalPositiveNumber('maxSize'),
          maxFiles: this.optionalPositiveNumber('maxFiles'),
          flush: this.optionalBoolean('flush') ?? false,
        };
      }
      case 'local': {
        const path = resolve(this.directory, this.requiredString('path'));
        if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
          this.fail('path', `'${path}' is longer than a local socket path can be (${MAX_SOCKET_PATH_BYTES} bytes)`);
        }
        return { type, path };
      }
      case 'pipe':
        return { type, command: this.requiredString('command') };
      default:
        this.fail('type', `expected 'console', 'file', 'local' or 'pipe', not ${JSON.stringify(type)}`);
    }
  }

  private fail(field: string, problem: string, cause?: unknown): never {
    throw new LogError('LOG_BAD_CONFIG', `logger '${this.name}': field '${field}': ${problem}`, { cause });
  }

  /** Runs a parser of the field, reporting its LogError as this logger's config error. */
  private parsed<T>(field: string, parse: () => T): T {
    try {
      return parse();
    } catch (err) {
      if (err instanceof LogError) this.fail(field, err.message, err);
      throw err;
    }
  }

  private optionalString(field: string): string | undefined {
    const value = this.fields[field];
    if (value !== undefined && typeof value !== 'string') this.fail(field, 'expected a string');
    return value;
  }

  private requiredString(field: string): string {
    const value = this.optionalString(field);
    if (!value) this.fail(field, 'required');
    return value;
  }

  private optionalBoolean(field: string): boolean | undefined {
    const value = this.fields[field];
    if (value !== undefined && typeof value !== 'boolean') this.fail(field, 'expected true or false');
    return value;
  }

  private optionalPositiveNumber(field: string): number | undefined {
    const value = this.fields[field];
    if (value !== undefined && (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))) {
      this.fail(field, 'expected a positive number');
    }
    return value;
  }

  private optionalPattern(field: string): FileNamePattern | undefined {
    const pattern = this.optionalString(field);
    return pattern === undefined ? undefined : this.parsed(field, () => new FileNamePattern(pattern, this.directory));
  }

  private optionalRotationTime(): RotationSchedule | undefined {
    const text = this.optionalString('rotationTime');
    return text === undefined ? undefined : this.parsed('rotationTime', () => parseRotationTime(text));
  }
}
