import { Codec, RefCodec, type Layout } from './codec.js';
import { FracpackError } from './errors.js';
import { BUILTIN_TYPES, kindOf, type AnyType, type Schema } from './schema.js';
import { FixedArrayCodec, VariableArrayCodec } from './codecs/array.js';
import { FloatCodec } from './codecs/float.js';
import { HexFixedCodec, HexListCodec, HexNestedCodec } from './codecs/hex.js';
import { BoolCodec, IntCodec, SmallIntCodec, isIntCodec } from './codecs/int.js';
import { ListCodec, StringCodec } from './codecs/list.js';
import { MapCodec } from './codecs/map.js';
import { ACCOUNT, METHOD, NameCodec, type NameForm } from './codecs/name.js';
import { NestedCodec } from './codecs/nested.js';
import { OptionCodec } from './codecs/option.js';
import { memberCodeFactory, type MemberCodeFactory, type MemberLoops } from './codecs/member-loops.js';
import { ExtensibleCodec, FixedStructCodec, VariableStructCodec, type Member } from './codecs/record.js';
import { TimeCodec } from './codecs/time.js';
import { VariantCodec } from './codecs/variant.js';

const VARIABLE: Layout = { fixedSize: 4, isVariable: true, isOptional: false, isContainer: false };

function schemaError(message: string): FracpackError {
  return new FracpackError('FRACPACK_SCHEMA', message);
}

/**
 * The underlying type of a name: psibase's struct `{value: u64}` (docs/formats.md §2) or, in
 * older schemas, `u64` itself; both have the wire form of a u64.
 */
function isNameNumber(u: Codec): boolean {
  const members = u instanceof FixedStructCodec ? u.members : undefined;
  const inner = members?.length === 1 && members[0]!.key === 'value' ? members[0]!.codec : u;
  const resolved = inner instanceof RefCodec ? inner.target ?? inner : inner;
  return isIntCodec(resolved) && resolved.bits === 64 && !resolved.isSigned;
}

/** Turns schema JSON into codecs; named types are compiled once, on first use. */
export class SchemaCompiler {
  private readonly compiled = new Map<string, Codec>();
  private readonly pending = new Map<string, RefCodec>();
  private readonly layouts = new Map<string, Layout | 'pending'>();
  /** Makes the member loops of every record type of the schema. */
  private readonly memberCode: MemberCodeFactory;

  constructor(private readonly schema: Schema, memberLoops?: MemberLoops, private readonly names: NameForm = 'numbers') {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
      throw schemaError('a schema must be an object mapping names to types');
    }
    this.memberCode = memberCodeFactory(memberLoops);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.schema, name) || Object.hasOwn(BUILTIN_TYPES, name);
  }

  private definition(name: string): AnyType {
    if (Object.hasOwn(this.schema, name)) return this.schema[name]!;
    if (Object.hasOwn(BUILTIN_TYPES, name)) return BUILTIN_TYPES[name]!;
    throw schemaError(`unknown type '${name}'`);
  }

  named(name: string): Codec {
    const done = this.compiled.get(name);
    if (done) return done;
    const pending = this.pending.get(name);
    if (pending) return pending;
    const ref = new RefCodec(name, this.layoutOf(name));
    this.pending.set(name, ref);
    try {
      const codec = this.build(this.definition(name), name);
      ref.target = codec;
      this.compiled.set(name, codec);
      return codec;
    } finally {
      this.pending.delete(name);
    }
  }

  codec(type: AnyType, label?: string): Codec {
    return typeof type === 'string' ? this.named(type) : this.build(type, label ?? describeType(type));
  }

  /** The layout of a type from its JSON alone, so a recursive type can be referenced before it is built. */
  private layoutOf(type: AnyType): Layout {
    if (typeof type === 'string') {
      const known = this.layouts.get(type);
      if (known === 'pending') throw schemaError(`type '${type}' contains itself without indirection (infinite size)`);
      if (known) return known;
      this.layouts.set(type, 'pending');
      try {
        const layout = this.layoutOf(this.definition(type));
        this.layouts.set(type, layout);
        return layout;
      } catch (err) {
        this.layouts.delete(type);
        throw err;
      }
    }
    const [kind, body] = kindOf(type);
    const fixed = (size: number): Layout => ({ fixedSize: size, isVariable: false, isOptional: false, isContainer: false });
    switch (kind) {
      case 'Int': return fixed(Math.ceil((body as { bits: number }).bits / 8));
      case 'Float': return fixed((body as { exp: number }).exp === 8 ? 4 : 8);
      case 'Struct': {
        const members = Object.values(body as Record<string, AnyType>).map((t) => this.layoutOf(t));
        return members.every((m) => !m.isVariable) ? fixed(members.reduce((n, m) => n + m.fixedSize, 0)) : VARIABLE;
      }
      case 'Array': {
        const { type: el, len } = body as { type: AnyType; len: number | string };
        const e = this.layoutOf(el);
        return e.isVariable ? VARIABLE : fixed(e.fixedSize * Number(len));
      }
      case 'List': return { ...VARIABLE, isContainer: true };
      case 'Option': return { ...VARIABLE, isOptional: true };
      case 'FracPack': {
        const inner = this.layoutOf(body as AnyType);
        return { ...VARIABLE, isContainer: !inner.isVariable && inner.fixedSize === 0 };
      }
      case 'Custom': return this.layoutOf((body as { type: AnyType }).type);
      default: return VARIABLE;
    }
  }

  private members(body: unknown, label: string, kind: string): Member[] {
    if (kind === 'Tuple') {
      if (!Array.isArray(body)) throw schemaError(`${label}: Tuple needs an array of types`);
      return body.map((t: AnyType, i) => ({ key: i, codec: this.codec(t, `${label}[${i}]`) }));
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw schemaError(`${label}: ${kind} needs an object of members`);
    return Object.entries(body as Record<string, AnyType>).map(([key, t]) => ({ key, codec: this.codec(t, `${label}.${key}`) }));
  }

  private build(type: AnyType, label: string): Codec {
    if (typeof type === 'string') return this.named(type);
    if (type === null || typeof type !== 'object') throw schemaError(`${label}: a type must be a name or a one-key object, got ${JSON.stringify(type)}`);
    const [kind, body] = kindOf(type);
    switch (kind) {
      case 'Int': {
        const { bits, isSigned } = body as { bits: number; isSigned: boolean };
        return IntCodec.create(label, bits, Boolean(isSigned));
      }
      case 'Float': {
        const { exp, mantissa } = body as { exp: number; mantissa: number };
        return new FloatCodec(label, exp, mantissa);
      }
      case 'Object':
      case 'Tuple':
        return new ExtensibleCodec(label, this.members(body, label, kind), kind === 'Tuple', this.memberCode);
      case 'Struct': {
        const members = this.members(body, label, kind);
        return members.every((m) => !m.codec.isVariable)
          ? new FixedStructCodec(label, members, this.memberCode)
          : new VariableStructCodec(label, members, this.memberCode);
      }
      case 'Variant': {
        const members = this.members(body, label, kind);
        return new VariantCodec(label, members.map((m) => ({ name: String(m.key), codec: m.codec })));
      }
      case 'Array': {
        const { type: el, len } = (body ?? {}) as { type: AnyType; len: number | string };
        const n = Number(len);
        if (!Number.isInteger(n) || n < 0) throw schemaError(`${label}: Array len must be a whole number, got ${JSON.stringify(len)}`);
        const element = this.codec(el, `${label}[]`);
        return element.isVariable ? new VariableArrayCodec(label, element, n) : new FixedArrayCodec(label, element, n);
      }
      case 'List': return new ListCodec(label, this.codec(body as AnyType, `${label}[]`));
      case 'Option': return new OptionCodec(label, this.codec(body as AnyType, `${label}?`));
      case 'FracPack': {
        return new NestedCodec(label, this.codec(body as AnyType, label));
      }
      case 'Custom': {
        const { type: inner, id } = (body ?? {}) as { type: AnyType; id: string };
        return this.custom(label, this.codec(inner, label), id);
      }
      default:
        throw schemaError(`${label}: unknown type kind ${JSON.stringify(type)}`);
    }
  }

  /** Custom ids change the native/JSON form when the underlying shape fits; otherwise they mean the underlying type. */
  private custom(label: string, underlying: Codec, id: string): Codec {
    const u = underlying instanceof RefCodec ? underlying.target ?? underlying : underlying;
    const int = isIntCodec(u) ? u : undefined;
    switch (id) {
      case 'bool':
        if (int && int.bits === 1 && !int.isSigned) return new BoolCodec(label);
        break;
      case 'string':
        if (u instanceof ListCodec && u.element instanceof SmallIntCodec && u.element.bits === 8) return new StringCodec(label);
        break;
      case 'hex':
        if (u instanceof ListCodec && !u.element.isVariable) return new HexListCodec(label, u, u.element);
        if (u instanceof NestedCodec) return new HexNestedCodec(label, u.inner);
        if (!u.isVariable) return new HexFixedCodec(label, u);
        break;
      case 'map': {
        const entry = u instanceof ListCodec ? u.element : undefined;
        const members = (entry as { members?: readonly Member[] } | undefined)?.members;
        if (members && members.length === 2) return new MapCodec(label, u as Codec<unknown[]>, members[0]!, members[1]!);
        break;
      }
      case 'AccountNumber':
      case 'MethodNumber':
        if (isNameNumber(u)) return new NameCodec(label, id === 'AccountNumber' ? ACCOUNT : METHOD, this.names);
        break;
      case 'TimePointSec':
      case 'TimePointUSec':
        if (int) return new TimeCodec(label, int as Codec<number | bigint>, id === 'TimePointSec' ? 'seconds' : 'microseconds');
        break;
    }
    return underlying;
  }
}

/** A short label for an anonymous type, used in error messages. */
export function describeType(type: AnyType): string {
  if (typeof type === 'string') return type;
  const [kind, body] = kindOf(type);
  switch (kind) {
    case 'Int': {
      const { bits, isSigned } = body as { bits: number; isSigned: boolean };
      return `${isSigned ? 'i' : 'u'}${bits}`;
    }
    case 'Float': return (body as { exp: number }).exp === 8 ? 'f32' : 'f64';
    case 'List': case 'Option': case 'FracPack': return `${kind}<${describeType(body as AnyType)}>`;
    case 'Array': {
      const { type: el, len } = body as { type: AnyType; len: number };
      return `Array<${describeType(el)},${len}>`;
    }
    case 'Custom': return (body as { id: string }).id;
    default: return kind || 'type';
  }
}
