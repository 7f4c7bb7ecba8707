// A log record and its JSON form (docs/http.md §8). Every attribute is optional; Logging fills in
// Host, Process, ProcessId and TimeStamp when the caller leaves them out.

export const SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CHANNELS = ['http', 'p2p', 'chain', 'service', 'block', 'transaction', 'consensus'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface RequestAttributes {
  Method?: string;
  Target?: string;
  Host?: string;
}

export interface ResponseAttributes {
  Status?: number;
  Bytes?: number;
  /** Microseconds. */
  Time?: number;
}

export interface LogRecord {
  Message?: string;
  /** The machine's name. */
  Host?: string;
  Process?: string;
  ProcessId?: number;
  TimeStamp?: Date;
  Severity?: Severity;
  Channel?: Channel;
  PeerId?: number;
  RemoteEndpoint?: string;
  BlockId?: string;
  BlockHeader?: Record<string, unknown>;
  TransactionId?: string;
  Request?: RequestAttributes;
  Response?: ResponseAttributes;
  /** The four times are microseconds. */
  PackTime?: number;
  ServiceLoadTime?: number;
  DatabaseTime?: number;
  WasmExecTime?: number;
}

/** How filters compare an attribute and how formats render it by default. */
export type AttributeKind = 'string' | 'number' | 'severity' | 'channel' | 'time' | 'object';

// Declaration order is the JSON key order of docs/http.md §8.
const TOP_LEVEL_KINDS: { readonly [K in keyof Required<LogRecord>]: AttributeKind } = {
  Message: 'string',
  Host: 'string',
  Process: 'string',
  ProcessId: 'number',
  TimeStamp: 'time',
  Severity: 'severity',
  Channel: 'channel',
  PeerId: 'number',
  RemoteEndpoint: 'string',
  BlockId: 'string',
  BlockHeader: 'object',
  TransactionId: 'string',
  Request: 'object',
  Response: 'object',
  PackTime: 'number',
  ServiceLoadTime: 'number',
  DatabaseTime: 'number',
  WasmExecTime: 'number',
};

const NESTED_KINDS: Readonly<Record<string, AttributeKind>> = {
  'Request.Method': 'string',
  'Request.Target': 'string',
  'Request.Host': 'string',
  'Response.Status': 'number',
  'Response.Bytes': 'number',
  'Response.Time': 'number',
};

const RECORD_KEYS = Object.keys(TOP_LEVEL_KINDS) as (keyof LogRecord)[];

// The JSON key order inside Request and Response, worked out once from NESTED_KINDS.
const NESTED_FIELDS = new Map<string, string[]>();
for (const path of Object.keys(NESTED_KINDS)) {
  const [parent, field] = path.split('.');
  NESTED_FIELDS.set(parent, [...(NESTED_FIELDS.get(parent) ?? []), field]);
}

/**
 * The kind of an attribute path such as `Severity` or `Request.Method`, or undefined for a name
 * no record has. Block headers are free-form, so `BlockHeader.<field>` is any kind.
 */
export function attributeKind(path: string): AttributeKind | 'any' | undefined {
  if (Object.hasOwn(TOP_LEVEL_KINDS, path)) return TOP_LEVEL_KINDS[path as keyof LogRecord];
  if (Object.hasOwn(NESTED_KINDS, path)) return NESTED_KINDS[path];
  if (/^BlockHeader(\.[^.]+)+$/.test(path)) return 'any';
  return undefined;
}

/**
 * Reads the value at an attribute path, undefined when any step is missing. Filters and formats
 * make their readers when compiled, so a path is split once rather than for every record.
 */
export function attributeReader(path: string): (record: LogRecord) => unknown {
  const steps = path.split('.');
  return (record) => {
    let value: unknown = record;
    for (const step of steps) {
      if (value === null || typeof value !== 'object' || value instanceof Date) return undefined;
      value = Object.hasOwn(value, step) ? (value as Record<string, unknown>)[step] : undefined;
    }
    return value;
  };
}

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** `YYYY-MM-DDThh:mm:ss.mmmZ`, always UTC. */
export function formatTimeStamp(time: Date): string {
  return time.toISOString();
}

/** The record as one JSON object, keys in the order of docs/http.md §8, absent attributes left out. */
export function recordToJson(record: LogRecord): string {
  const ordered: Record<string, unknown> = {};
  for (const key of RECORD_KEYS) {
    const value = record[key];
    if (value === undefined) continue;
    if (value instanceof Date) ordered[key] = formatTimeStamp(value);
    else if (NESTED_FIELDS.has(key)) ordered[key] = inKeyOrder(NESTED_FIELDS.get(key)!, value as Record<string, unknown>);
    else ordered[key] = value;
  }
  return toJson(ordered);
}

/**
 * JSON text of a record or part of one. Logging must not throw at the code that logs, so
 * 64-bit values (bigint) become decimal strings and a value JSON cannot hold (a cycle) becomes
 * a string saying so.
 */
export function toJson(value: unknown): string {
  try {
    // A replacer makes stringify markedly slower, so only values it throws on (bigint) pay for it.
    return JSON.stringify(value);
  } catch {
    return toJsonWithBigints(value);
  }
}

function toJsonWithBigints(value: unknown): string {
  try {
    return JSON.stringify(value, (_, field) => (typeof field === 'bigint' ? field.toString() : field));
  } catch (err) {
    return JSON.stringify(`unserializable: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function inKeyOrder(fields: readonly string[], value: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const field of fields) {
    const fieldValue = value[field];
    if (fieldValue !== undefined) ordered[field] = fieldValue;
  }
  return ordered;
}
