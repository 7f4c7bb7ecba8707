import type { Codec } from './codec.js';
import { FracpackError } from './errors.js';
import { Reader } from './reader.js';
import { SchemaCompiler } from './compile.js';
import type { MemberLoops } from './codecs/member-loops.js';
import type { NameForm } from './codecs/name.js';
import type { NativeOf, TypeName, ValueOf } from './native-type.js';
import type { AnyType, Schema } from './schema.js';
import { withWriter } from './writer.js';

export interface UnpackOptions {
  /** Accept unknown extension fields (data from a newer version of the type). Default: strict. */
  compat?: boolean;
  /**
   * Byte fields (bytes, hex types) are views into `bytes` instead of copies: for a caller that
   * owns `bytes` and never changes them. Default: copies.
   */
  views?: boolean;
}

/** The public face of one type: pack/unpack bytes and map values to and from JSON. */
export class TypeCodec<T = unknown> {
  constructor(readonly codec: Codec<T>) {}

  get name(): string {
    return this.codec.name;
  }

  pack(value: unknown): Uint8Array {
    const codec = this.codec;
    return withWriter((w) => codec.writeFull(w, value));
  }

  unpack(bytes: Uint8Array, options?: UnpackOptions): T {
    if (!(bytes instanceof Uint8Array)) {
      throw new FracpackError('FRACPACK_VALUE', `${this.name}: unpack needs a Uint8Array`);
    }
    const r = new Reader(bytes, options?.compat === true, options?.views === true);
    const value = this.codec.readFull(r);
    if (r.known && r.pos !== r.end) {
      throw new FracpackError('FRACPACK_TRAILING_BYTES', `${this.name}: ${r.end - r.pos} bytes left over after the value`);
    }
    return value;
  }

  /** Checks that `bytes` hold one valid value; returns the error instead of throwing. */
  check(bytes: Uint8Array, options?: UnpackOptions): FracpackError | undefined {
    try {
      this.unpack(bytes, options);
      return undefined;
    } catch (err) {
      if (err instanceof FracpackError) return err;
      throw err;
    }
  }

  toJson(value: T): unknown {
    return this.codec.toJson(value);
  }

  /**
   * The native value of `json`. Members left out take their defaults and unknown keys are skipped,
   * as in psibase (docs/formats.md §3.1); `strict: true` refuses a missing non-optional member.
   */
  fromJson(json: unknown, options?: { strict?: boolean }): T {
    return this.codec.fromJson(json, options?.strict === true);
  }
}

export interface CompiledSchema<S extends Schema = Schema> {
  /**
   * The codec of a named type of the schema (or a built-in such as `u64`, `string`); for a schema
   * declared `as const`, typed with the native value derived from the schema.
   */
  type<N extends TypeName<S>>(name: N): TypeCodec<ValueOf<S, N>>;
  type<T = unknown>(name: string): TypeCodec<T>;
  /** The codec of an anonymous type expression, e.g. `{ List: 'Action' }`. */
  typeOf<const T extends AnyType>(type: T): TypeCodec<NativeOf<S, T>>;
  typeOf<T = unknown>(type: AnyType): TypeCodec<T>;
  has(name: string): boolean;
}

export interface SchemaOptions {
  /**
   * How records' member loops run: `compiled` (straight-line code from `new Function`, the
   * faster) or `interpreted`. Default: compiled where this realm allows `new Function`,
   * interpreted where it does not (a Content-Security-Policy without 'unsafe-eval').
   */
  memberLoops?: MemberLoops;
  /**
   * The native value of AccountNumber and MethodNumber: `numbers` (bigint, the default, which
   * the derived value types describe) or `strings` (the names, as typed clients give them).
   */
  names?: NameForm;
}

export function compileSchema<const S extends Schema>(schema: S, options?: SchemaOptions): CompiledSchema<S> {
  const compiler = new SchemaCompiler(schema, options?.memberLoops, options?.names);
  const cache = new Map<string, TypeCodec>();
  // The one place a schema's derived value types meet its codecs: the codecs are built from that
  // same schema, so they produce exactly those values (native-type.ts mirrors compile.ts).
  type Derived = TypeCodec<any>;
  return {
    type(name: string): Derived {
      let codec = cache.get(name);
      if (!codec) {
        codec = new TypeCodec(compiler.named(name));
        cache.set(name, codec);
      }
      return codec;
    },
    typeOf(type: AnyType): Derived {
      return new TypeCodec(compiler.codec(type));
    },
    has: (name) => compiler.has(name),
  };
}

export { FracpackError, type FracpackErrorCode } from './errors.js';
export type { AnyType, Schema } from './schema.js';
export type { MemberLoops } from './codecs/member-loops.js';
export type { NameForm } from './codecs/name.js';
export { BUILTIN_TYPES } from './schema.js';
export type { NativeOf, TypeName, ValueOf } from './native-type.js';
