// The native value of a schema type, computed from the schema itself (declared `as const`), so a
// type's TypeScript form cannot drift from its wire form. It mirrors what the codecs produce
// (compile.ts and codecs/): integers up to 32 bits are numbers, wider ones bigints; bytes and
// other hex types are Uint8Array; names are their bigint numbers; times are their integer counts.

import type { AnyType } from './schema.js';

/** Native values of the built-in names (schema.ts BUILTIN_TYPES), used when a schema does not define them. */
interface BuiltinValues {
  u8: number; u16: number; u32: number;
  i8: number; i16: number; i32: number;
  u64: bigint; i64: bigint;
  f32: number; f64: number;
  bool: boolean;
  string: string;
  bytes: Uint8Array;
  Checksum256: Uint8Array;
  AccountNumber: bigint;
  MethodNumber: bigint;
  TimePointSec: bigint;
  TimePointUSec: bigint;
}

export type BuiltinName = keyof BuiltinValues;

/** Int bit counts whose native value is a number (IntCodec.create). */
type SmallBits =
  | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16
  | 17 | 18 | 19 | 20 | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 28 | 29 | 30 | 31 | 32;

/** The names a schema can use: its own (when they are known literally) and the built-ins. */
export type TypeName<S> = string extends keyof S ? BuiltinName : (keyof S & string) | BuiltinName;

/** The native value of the type named `N` in schema `S` (its own definition wins over a built-in). */
export type ValueOf<S, N extends string> = string extends keyof S
  ? (N extends BuiltinName ? BuiltinValues[N] : unknown) // a schema not known literally
  : N extends keyof S ? NativeOf<S, S[N]>
  : N extends BuiltinName ? BuiltinValues[N] : unknown;

// Exported only so that declarations of derived types can name them.
export type Members<S, M> = { -readonly [K in keyof M]: NativeOf<S, M[K]> };
export type Alternatives<S, M> = { [K in keyof M]: { [A in K]: NativeOf<S, M[K]> } }[keyof M];

/**
 * Custom ids change the native form only when the underlying shape fits (SchemaCompiler.custom);
 * otherwise, and for any other id, the value is the underlying type's.
 */
type CustomOf<S, U, Id> = Id extends 'bool' ? (U extends { readonly Int: { readonly bits: 1; readonly isSigned: false } } ? boolean : NativeOf<S, U>)
  : Id extends 'string' ? (U extends { readonly List: 'u8' } ? string : NativeOf<S, U>)
  : Id extends 'hex' ? (U extends { readonly List: unknown } | { readonly Array: unknown } | { readonly FracPack: unknown } ? Uint8Array : NativeOf<S, U>)
  : Id extends 'AccountNumber' | 'MethodNumber' ? (U extends 'u64' | { readonly Struct: { readonly value: 'u64' } } ? bigint : NativeOf<S, U>)
  : Id extends 'map' ? unknown[]
  : NativeOf<S, U>;

/** The native value of a type expression of schema `S`. */
export type NativeOf<S, T> = AnyType extends T ? unknown // a type expression not known literally
  : T extends string ? ValueOf<S, T>
  : T extends { readonly Int: { readonly bits: infer B } } ? (B extends SmallBits ? number : number extends B ? number | bigint : bigint)
  : T extends { readonly Float: unknown } ? number
  : T extends { readonly Struct: infer M } ? Members<S, M>
  : T extends { readonly Object: infer M } ? Members<S, M>
  : T extends { readonly Tuple: infer M } ? Members<S, M>
  : T extends { readonly Variant: infer M } ? Alternatives<S, M>
  : T extends { readonly Array: { readonly type: infer E } } ? NativeOf<S, E>[]
  : T extends { readonly List: infer E } ? NativeOf<S, E>[]
  : T extends { readonly Option: infer E } ? NativeOf<S, E> | null
  : T extends { readonly FracPack: infer E } ? NativeOf<S, E>
  : T extends { readonly Custom: { readonly type: infer U; readonly id: infer Id } } ? CustomOf<S, U, Id>
  : unknown;
