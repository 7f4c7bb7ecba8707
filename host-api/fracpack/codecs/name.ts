import { FixedCodec, describe, jsonError, valueError } from '../codec.js';
import type { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import {
  accountNameFromNumber, accountNumberFromName, methodNameFromNumber, methodNumberFromName,
} from '../../names/index.js';

const MAX_U64 = (1n << 64n) - 1n;
const CACHE_LIMIT = 4096;

interface NameKind {
  readonly toNumber: (name: string) => bigint;
  readonly toName: (n: bigint) => string;
}

export const ACCOUNT: NameKind = { toNumber: accountNumberFromName, toName: accountNameFromNumber };
export const METHOD: NameKind = { toNumber: methodNumberFromName, toName: methodNameFromNumber };

/** The native value of a name: its number (bigint), or its name (a string) for typed clients. */
export type NameForm = 'numbers' | 'strings';

/**
 * Custom AccountNumber / MethodNumber over u64: natively the number (bigint) or, in the `strings`
 * form, the name; in JSON the name. Packing accepts either; names seen recently are cached,
 * since transactions repeat them.
 */
export class NameCodec extends FixedCodec<bigint | string> {
  readonly fixedSize = 8;
  private readonly numbers = new Map<string, bigint>();
  private readonly names = new Map<bigint, string>();

  constructor(name: string, private readonly kind: NameKind, private readonly form: NameForm = 'numbers') {
    super(name);
  }

  private nameOf(value: bigint): string {
    let s = this.names.get(value);
    if (s === undefined) {
      s = this.kind.toName(value);
      if (this.names.size >= CACHE_LIMIT) this.names.clear();
      this.names.set(value, s);
    }
    return s;
  }

  private native(n: bigint): bigint | string {
    return this.form === 'strings' ? this.nameOf(n) : n;
  }

  private numberOf(value: unknown, fail: (c: { name: string }, m: string) => FracpackError): bigint {
    if (typeof value === 'bigint') {
      if (value < 0n || value > MAX_U64) throw fail(this, `${value} is out of range for a u64`);
      return value;
    }
    if (typeof value !== 'string') throw fail(this, `expected a name or a bigint, got ${describe(value)}`);
    let n = this.numbers.get(value);
    if (n === undefined) {
      try {
        n = this.kind.toNumber(value);
      } catch (err) {
        throw fail(this, (err as Error).message);
      }
      if (this.numbers.size >= CACHE_LIMIT) this.numbers.clear();
      this.numbers.set(value, n);
    }
    return n;
  }

  writeFull(w: Writer, value: unknown): void {
    const n = this.numberOf(value, valueError);
    w.reserve(8);
    w.view.setBigUint64(w.pos, n, true);
    w.pos += 8;
  }

  readSlot(r: Reader, at: number): bigint | string {
    return this.native(r.view.getBigUint64(at, true));
  }

  toJson(value: bigint | string): unknown {
    return typeof value === 'string' ? this.nameOf(this.numberOf(value, valueError)) : this.nameOf(value);
  }

  defaultValue(): bigint | string {
    return this.native(0n);
  }

  fromJson(json: unknown): bigint | string {
    if (typeof json !== 'string') throw jsonError(this, `expected a name string, got ${describe(json)}`);
    return this.native(this.numberOf(json, jsonError));
  }
}
