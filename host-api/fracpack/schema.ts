// psibase's schema JSON (docs/formats.md §2): a schema maps names to types; a type is a reference
// (a name) or a one-key object naming its kind.

// Read-only, so a schema declared `as const` is one (native-type.ts derives its values' types).
export type AnyType =
  | string
  | { readonly Int: { readonly bits: number; readonly isSigned: boolean } }
  | { readonly Float: { readonly exp: number; readonly mantissa: number } }
  | { readonly Struct: { readonly [member: string]: AnyType } }
  | { readonly Object: { readonly [member: string]: AnyType } }
  | { readonly Variant: { readonly [alternative: string]: AnyType } }
  | { readonly Tuple: readonly AnyType[] }
  | { readonly Array: { readonly type: AnyType; readonly len: number | string } }
  | { readonly List: AnyType }
  | { readonly Option: AnyType }
  | { readonly FracPack: AnyType }
  | { readonly Custom: { readonly type: AnyType; readonly id: string } };

export type Schema = Record<string, AnyType>;

const int = (bits: number, isSigned: boolean): AnyType => ({ Int: { bits, isSigned } });

/** Names every schema can use without defining them (a schema's own definition wins). */
export const BUILTIN_TYPES: Schema = {
  u8: int(8, false), u16: int(16, false), u32: int(32, false), u64: int(64, false),
  i8: int(8, true), i16: int(16, true), i32: int(32, true), i64: int(64, true),
  f32: { Float: { exp: 8, mantissa: 24 } },
  f64: { Float: { exp: 11, mantissa: 53 } },
  bool: { Custom: { type: int(1, false), id: 'bool' } },
  string: { Custom: { type: { List: 'u8' }, id: 'string' } },
  bytes: { Custom: { type: { List: 'u8' }, id: 'hex' } },
  Checksum256: { Custom: { type: { Array: { type: 'u8', len: 32 } }, id: 'hex' } },
  // As psibase writes it: a Custom over the struct of its one field (readers also take `u64`).
  AccountNumber: { Custom: { type: { Struct: { value: 'u64' } }, id: 'AccountNumber' } },
  MethodNumber: { Custom: { type: 'u64', id: 'MethodNumber' } },
  TimePointSec: { Custom: { type: 'i64', id: 'TimePointSec' } },
  TimePointUSec: { Custom: { type: 'i64', id: 'TimePointUSec' } },
};

/** The kind of a non-reference type and its payload. */
export function kindOf(type: Exclude<AnyType, string>): [string, unknown] {
  const keys = Object.keys(type);
  if (keys.length !== 1) return ['', undefined];
  return [keys[0]!, (type as Record<string, unknown>)[keys[0]!]];
}
