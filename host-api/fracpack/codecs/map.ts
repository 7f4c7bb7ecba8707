import { Codec, describe, jsonError, valueError, withPath } from '../codec.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import { ContainerCodec } from './list.js';
import type { Member } from './record.js';

/**
 * Custom `map` over a List of 2-member records: natively the list of records, in JSON an object
 * whose keys are the key members' JSON (as strings) in list order. Packing accepts either.
 */
export class MapCodec extends ContainerCodec<unknown[]> {
  constructor(name: string, private readonly list: Codec<unknown[]>, private readonly key: Member, private readonly value: Member) {
    super(name);
  }

  /** The list form of a value that may be given as a JSON object. */
  private entries(value: unknown, fail: typeof valueError): unknown[] {
    if (Array.isArray(value)) return value;
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) return this.fromJson(value);
    throw fail(this, `expected an object or a list of entries, got ${describe(value)}`);
  }

  isEmpty(value: unknown): boolean {
    return this.entries(value, valueError).length === 0;
  }

  emptyValue(): unknown[] {
    return [];
  }

  writeFull(w: Writer, value: unknown): void {
    this.list.writeFull(w, this.entries(value, valueError));
  }

  readFull(r: Reader): unknown[] {
    return this.list.readFull(r);
  }

  toJson(value: unknown[]): unknown {
    const out: Record<string, unknown> = {};
    for (const entry of value as Record<string | number, unknown>[]) {
      out[String(this.key.codec.toJson(entry[this.key.key]))] = this.value.codec.toJson(entry[this.value.key]);
    }
    return out;
  }

  fromJson(json: unknown, strict = false): unknown[] {
    if (Array.isArray(json)) return this.list.fromJson(json, strict);
    if (json === null || typeof json !== 'object') throw jsonError(this, `expected an object, got ${describe(json)}`);
    const positional = typeof this.key.key === 'number';
    return Object.entries(json).map(([k, v]) => {
      try {
        const entry = (positional ? [] : {}) as Record<string | number, unknown>;
        entry[this.key.key] = this.key.codec.fromJson(k, strict);
        entry[this.value.key] = this.value.codec.fromJson(v, strict);
        return entry;
      } catch (err) {
        throw withPath(err, `${this.name}[${JSON.stringify(k)}]`);
      }
    });
  }
}
