import { Codec, FixedCodec, describe, jsonError, valueError } from '../codec.js';
import type { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import { formatTimePoint, parseTimePoint, type TimeUnit } from '../../encoding/time.js';

/**
 * Custom TimePointSec / TimePointUSec over an Int: natively the integer count of seconds or
 * microseconds since 1970, in JSON an RFC 3339 UTC string. Packing accepts either.
 */
export class TimeCodec<T extends number | bigint> extends FixedCodec<T> {
  readonly fixedSize: number;

  constructor(name: string, private readonly underlying: Codec<T>, private readonly unit: TimeUnit) {
    super(name);
    this.fixedSize = underlying.fixedSize;
  }

  private fromString(text: string, fail: (c: { name: string }, m: string) => FracpackError): T {
    let count: bigint;
    try {
      count = parseTimePoint(text, this.unit);
    } catch (err) {
      throw fail(this, (err as Error).message);
    }
    // Let the underlying Int choose its native form (number or bigint) and check the range.
    return this.underlying.fromJson(count.toString());
  }

  writeFull(w: Writer, value: unknown): void {
    this.underlying.writeFull(w, typeof value === 'string' ? this.fromString(value, valueError) : value);
  }

  readSlot(r: Reader, at: number): T {
    return this.underlying.readSlot(r, at);
  }

  toJson(value: T): unknown {
    return formatTimePoint(BigInt(value), this.unit);
  }

  defaultValue(): T {
    return this.underlying.defaultValue();
  }

  fromJson(json: unknown): T {
    if (typeof json !== 'string') throw jsonError(this, `expected a time string, got ${describe(json)}`);
    return this.fromString(json, jsonError);
  }
}
