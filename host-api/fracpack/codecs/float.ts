import { FixedCodec, describe, jsonError, valueError } from '../codec.js';
import { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

/** Float{8,24} (f32) or Float{11,53} (f64); NaN is always written as the quiet NaN. */
export class FloatCodec extends FixedCodec<number> {
  readonly fixedSize: 4 | 8;

  constructor(name: string, exp: number, mantissa: number) {
    super(name);
    if (exp === 8 && mantissa === 24) this.fixedSize = 4;
    else if (exp === 11 && mantissa === 53) this.fixedSize = 8;
    else throw new FracpackError('FRACPACK_SCHEMA', `${name}: only Float{8,24} and Float{11,53} exist, got {${exp},${mantissa}}`);
  }

  private toNumber(value: unknown, fail: (m: string) => FracpackError): number {
    if (typeof value === 'number') return value;
    if (value === 'NaN') return NaN;
    if (value === 'Infinity') return Infinity;
    if (value === '-Infinity') return -Infinity;
    throw fail(`expected a number, got ${describe(value)}`);
  }

  writeFull(w: Writer, value: unknown): void {
    const n = this.toNumber(value, (m) => valueError(this, m));
    w.reserve(this.fixedSize);
    if (this.fixedSize === 4) {
      if (Number.isNaN(n)) w.view.setUint32(w.pos, 0x7fc00000, true);
      else w.view.setFloat32(w.pos, n, true);
    } else if (Number.isNaN(n)) {
      w.view.setUint32(w.pos, 0, true);
      w.view.setUint32(w.pos + 4, 0x7ff80000, true);
    } else {
      w.view.setFloat64(w.pos, n, true);
    }
    w.pos += this.fixedSize;
  }

  readSlot(r: Reader, at: number): number {
    return this.fixedSize === 4 ? r.view.getFloat32(at, true) : r.view.getFloat64(at, true);
  }

  toJson(value: number): unknown {
    return Number.isFinite(value) ? value : String(value);
  }

  defaultValue(): number {
    return 0;
  }

  fromJson(json: unknown): number {
    const n = this.toNumber(json, (m) => jsonError(this, m));
    return this.fixedSize === 4 ? Math.fround(n) : n;
  }
}
