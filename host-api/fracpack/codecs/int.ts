import { Codec, FixedCodec, describe, jsonError, valueError } from '../codec.js';
import { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

const DECIMAL = /^-?\d+$/;

/**
 * Int{bits,isSigned}: ceil(bits/8) little-endian bytes. Up to 32 bits the value is a number,
 * above it a bigint (JSON: decimal string). A stored value outside `bits` is rejected, which is
 * what makes a 1-bit int accept only 0 and 1.
 */
export abstract class IntCodec<T extends number | bigint> extends FixedCodec<T> {
  readonly fixedSize: number;

  constructor(name: string, readonly bits: number, readonly isSigned: boolean) {
    super(name);
    this.fixedSize = Math.ceil(bits / 8);
  }

  static create(name: string, bits: number, isSigned: boolean): IntCodec<number> | IntCodec<bigint> {
    if (!Number.isInteger(bits) || bits < 1 || bits > 64) {
      throw new FracpackError('FRACPACK_SCHEMA', `${name}: Int bits must be 1..64, got ${bits}`);
    }
    return bits <= 32 ? new SmallIntCodec(name, bits, isSigned) : new BigIntCodec(name, bits, isSigned);
  }
}

export class SmallIntCodec extends IntCodec<number> {
  private readonly min: number;
  private readonly max: number;

  constructor(name: string, bits: number, isSigned: boolean) {
    super(name, bits, isSigned);
    this.min = isSigned ? -(2 ** (bits - 1)) : 0;
    this.max = isSigned ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  }

  /** Accepts a number, a bigint or a decimal string holding an integer in range. */
  coerce(value: unknown, fail: (msg: string) => FracpackError): number {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'bigint') n = Number(value);
    else if (typeof value === 'string' && DECIMAL.test(value)) n = Number(value);
    else throw fail(`expected an integer, got ${describe(value)}`);
    if (!Number.isInteger(n)) throw fail(`${n} is not an integer`);
    if (n < this.min || n > this.max) throw fail(`${String(value)} is out of range ${this.min}..${this.max}`);
    return n;
  }

  writeFull(w: Writer, value: unknown): void {
    const n = typeof value === 'number' && value >= this.min && value <= this.max && Number.isInteger(value)
      ? value
      : this.coerce(value, (m) => valueError(this, m));
    w.reserve(this.fixedSize);
    const v = w.view;
    switch (this.fixedSize) {
      case 1: w.buf[w.pos] = n & 0xff; break;
      case 2: v.setUint16(w.pos, n & 0xffff, true); break;
      case 3: v.setUint16(w.pos, n & 0xffff, true); w.buf[w.pos + 2] = (n >> 16) & 0xff; break;
      default: v.setUint32(w.pos, n >>> 0, true);
    }
    w.pos += this.fixedSize;
  }

  readSlot(r: Reader, at: number): number {
    let u: number;
    switch (this.fixedSize) {
      case 1: u = r.buf[at]!; break;
      case 2: u = r.u16(at); break;
      case 3: u = r.u16(at) | (r.buf[at + 2]! << 16); break;
      default: u = r.u32(at);
    }
    const width = this.fixedSize * 8;
    // Reinterpret the stored bytes as signed at their full width, then check the declared width.
    const n = this.isSigned && u >= 2 ** (width - 1) ? u - 2 ** width : u;
    if (n < this.min || n > this.max) {
      throw new FracpackError(this.bits === 1 ? 'FRACPACK_BAD_BOOL' : 'FRACPACK_OUT_OF_RANGE',
        `${this.name}: stored value ${n} at byte ${at} does not fit ${this.bits} bits`);
    }
    return n;
  }

  toJson(value: number): unknown {
    return value;
  }

  fromJson(json: unknown): number {
    return this.coerce(json, (m) => jsonError(this, m));
  }

  defaultValue(): number {
    return 0;
  }
}

export class BigIntCodec extends IntCodec<bigint> {
  private readonly min: bigint;
  private readonly max: bigint;

  constructor(name: string, bits: number, isSigned: boolean) {
    super(name, bits, isSigned);
    this.min = isSigned ? -(1n << BigInt(bits - 1)) : 0n;
    this.max = isSigned ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  }

  coerce(value: unknown, fail: (msg: string) => FracpackError): bigint {
    let n: bigint;
    if (typeof value === 'bigint') n = value;
    else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw fail(`${value} is not a safe integer; pass a bigint or a decimal string`);
      n = BigInt(value);
    } else if (typeof value === 'string' && DECIMAL.test(value)) n = BigInt(value);
    else throw fail(`expected an integer, got ${describe(value)}`);
    if (n < this.min || n > this.max) throw fail(`${n} is out of range ${this.min}..${this.max}`);
    return n;
  }

  writeFull(w: Writer, value: unknown): void {
    const n = typeof value === 'bigint' && value >= this.min && value <= this.max
      ? value
      : this.coerce(value, (m) => valueError(this, m));
    w.reserve(this.fixedSize);
    if (this.fixedSize === 8) {
      w.view.setBigUint64(w.pos, BigInt.asUintN(64, n), true);
    } else {
      let u = BigInt.asUintN(this.fixedSize * 8, n);
      for (let i = 0; i < this.fixedSize; i++, u >>= 8n) w.buf[w.pos + i] = Number(u & 0xffn);
    }
    w.pos += this.fixedSize;
  }

  readSlot(r: Reader, at: number): bigint {
    let n: bigint;
    if (this.fixedSize === 8) {
      n = this.isSigned ? r.view.getBigInt64(at, true) : r.view.getBigUint64(at, true);
    } else {
      let u = 0n;
      for (let i = this.fixedSize - 1; i >= 0; i--) u = (u << 8n) | BigInt(r.buf[at + i]!);
      n = this.isSigned ? BigInt.asIntN(this.fixedSize * 8, u) : u;
    }
    if (n < this.min || n > this.max) {
      throw new FracpackError('FRACPACK_OUT_OF_RANGE', `${this.name}: stored value ${n} at byte ${at} does not fit ${this.bits} bits`);
    }
    return n;
  }

  toJson(value: bigint): unknown {
    return value.toString();
  }

  fromJson(json: unknown): bigint {
    return this.coerce(json, (m) => jsonError(this, m));
  }

  defaultValue(): bigint {
    return 0n;
  }
}

/** Custom `bool` over a 1-bit unsigned Int: true/false natively and in JSON. */
export class BoolCodec extends FixedCodec<boolean> {
  readonly fixedSize = 1;

  writeFull(w: Writer, value: unknown): void {
    if (typeof value !== 'boolean') {
      if (value !== 0 && value !== 1) throw valueError(this, `expected a boolean, got ${describe(value)}`);
    }
    w.u8(value ? 1 : 0);
  }

  readSlot(r: Reader, at: number): boolean {
    const b = r.buf[at]!;
    if (b > 1) throw new FracpackError('FRACPACK_BAD_BOOL', `${this.name}: byte ${b} at ${at} is not a bool (0 or 1)`);
    return b === 1;
  }

  toJson(value: boolean): unknown {
    return value;
  }

  fromJson(json: unknown): boolean {
    if (typeof json !== 'boolean') throw jsonError(this, `expected true or false, got ${describe(json)}`);
    return json;
  }

  defaultValue(): boolean {
    return false;
  }
}

export function isIntCodec(c: Codec): c is IntCodec<number> | IntCodec<bigint> {
  return c instanceof IntCodec;
}
