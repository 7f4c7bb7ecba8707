// Random fracpack types that the AssemblyScript SDK can express, each with its schema type (for
// host-api), its AssemblyScript type and record class declarations, and a random value source.
import type { AnyType } from '../../../host-api/index.js';
import type { Random } from '../../lib/random.js';

export interface SdkType {
  schema: AnyType;
  /** The AssemblyScript type expression. */
  as: string;
  /** A non-null AssemblyScript reference type (can be written `T | null`). */
  reference: boolean;
  value: (rnd: Random) => unknown;
}

const STRINGS = ['', 'a', 'hello', 'ünïcødé', '€', '😀 emoji', 'nul\u0000byte', 'x'.repeat(40)];
const ACCOUNTS = ['', 'a', 'alice', 'tokens', 'verify-sig', 'zzzzzzzzzz', 'a+7'];

function int(bits: 8 | 16 | 32 | 64, isSigned: boolean): SdkType {
  const as = `${isSigned ? 'i' : 'u'}${bits}`;
  if (bits === 64) {
    const min = isSigned ? -(1n << 63n) : 0n;
    const max = isSigned ? (1n << 63n) - 1n : (1n << 64n) - 1n;
    return { schema: as, as, reference: false, value: (r) => r.pick([min, max, 0n, BigInt(r.int(1e9)) * (isSigned && r.bool() ? -1n : 1n)]) };
  }
  const min = isSigned ? -(2 ** (bits - 1)) : 0;
  const max = isSigned ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  return { schema: as, as, reference: false, value: (r) => r.pick([min, max, 0, min + r.int(max - min + 1)]) };
}

/** Generates types; record classes accumulate in `declarations`. */
export class SdkTypeGenerator {
  readonly declarations: string[] = [];

  constructor(private readonly rnd: Random) {}

  leaf(): SdkType {
    const r = this.rnd;
    switch (r.int(10)) {
      case 0: return int(r.pick([8, 16, 32, 64] as const), r.bool());
      case 1: return { schema: 'f32', as: 'f32', reference: false, value: (x) => x.pick([0, 1.5, -2.75, Infinity, NaN, 1.401298464324817e-45]) };
      case 2: return { schema: 'f64', as: 'f64', reference: false, value: (x) => x.pick([0, -1.25, x.next() * 1e300, Number.MAX_VALUE, NaN, 5e-324]) };
      case 3: return { schema: 'bool', as: 'bool', reference: false, value: (x) => x.bool() };
      case 4: return { schema: 'string', as: 'string', reference: true, value: (x) => x.pick(STRINGS) };
      case 5: return { schema: 'bytes', as: 'Uint8Array', reference: true, value: (x) => x.bytes(x.pick([0, 1, 5])) };
      case 6: return { schema: 'AccountNumber', as: 'sdk.AccountNumber', reference: false, value: (x) => x.pick(ACCOUNTS) };
      case 7: return { schema: 'Checksum256', as: 'sdk.Checksum256', reference: true, value: (x) => x.bytes(32) };
      case 8: return this.record('Struct', []);
      default: return int(8, false);
    }
  }

  type(depth: number): SdkType {
    const r = this.rnd;
    if (depth <= 0 || r.next() < 0.3) return this.leaf();
    switch (r.int(6)) {
      case 0: {
        const el = this.type(depth - 1);
        if (JSON.stringify(el.schema) === '{"Struct":{}}') return el; // a List of a zero-size type is invalid
        return { schema: { List: el.schema }, as: `Array<${el.as}>`, reference: true, value: (x) => Array.from({ length: x.pick([0, 1, 3]) }, () => el.value(x)) };
      }
      case 1: {
        const inner = this.type(depth - 1);
        // Both spellings of an option: `T | null` (reference types only) and sdk.Option<T>.
        const as = inner.reference && r.bool() ? `${inner.as} | null` : `sdk.Option<${inner.as}>`;
        return { schema: { Option: inner.schema }, as, reference: !as.endsWith('| null'), value: (x) => (x.next() < 0.3 ? null : inner.value(x)) };
      }
      case 2: return this.record('Object', this.members(depth));
      case 3: return this.record('Struct', this.members(depth));
      default: {
        const members = this.members(depth);
        return members.length ? this.record('Variant', members) : this.leaf();
      }
    }
  }

  private members(depth: number): SdkType[] {
    return Array.from({ length: this.rnd.int(4) }, () => this.type(depth - 1));
  }

  private record(kind: 'Object' | 'Struct' | 'Variant', members: SdkType[]): SdkType {
    const name = `R${this.declarations.length}`;
    const decorator = { Object: 'fracpack', Struct: 'struct', Variant: 'variant' }[kind];
    const fields = members.map((m, i) => (m.as.endsWith('| null') ? `m${i}: ${m.as} = null;` : `m${i}!: ${m.as};`));
    this.declarations.push(`@${decorator} class ${name} { ${fields.join(' ')} }`);
    const schema = { [kind]: Object.fromEntries(members.map((m, i) => [`m${i}`, m.schema])) } as AnyType;
    const value = kind === 'Variant'
      ? (x: Random) => {
        const i = x.int(members.length);
        return { [`m${i}`]: members[i]!.value(x) };
      }
      : (x: Random) => Object.fromEntries(members.map((m, i) => [`m${i}`, m.value(x)]));
    return { schema, as: name, reference: true, value };
  }
}
