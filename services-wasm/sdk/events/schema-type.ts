// Types of psibase's schema JSON (docs/formats.md §2), resolved into a graph that a decoder can walk
// at run time: the event types of a service come from its schema (the one the transform embeds,
// or the one in another service's code), not from AssemblyScript classes.

import { JsonKind, JsonValue } from "../json/value";
import { parseJson } from "../json/parse";

export enum TypeKind {
  Int,
  Float,
  Struct,
  Object,
  Variant,
  Tuple,
  Array,
  List,
  Option,
  FracPack,
  Custom,
}

/** A named member (Struct, Object, Variant) or a position (Tuple: name ""). */
export class Member {
  constructor(public name: string, public type: SchemaType) {}
}

export class SchemaType {
  kind: TypeKind = TypeKind.Int;
  /** Int. */
  bits: i32 = 0;
  isSigned: bool = false;
  /** Float: 4 (exp 8, mantissa 24) or 8 bytes (exp 11, mantissa 53). */
  floatSize: i32 = 0;
  /** Struct, Object, Variant, Tuple. */
  members: Array<Member> = [];
  /** The element, inner or underlying type: Array, List, Option, FracPack, Custom. */
  inner: SchemaType | null = null;
  /** Array. */
  length: u32 = 0;
  /** Custom. */
  id: string = "";
  /** Slot size and fixedness, computed on first use (recursive types are never fixed through a pointer). */
  private sized: bool = false;
  private fixedSize: u32 = 4;
  private fixed: bool = false;

  get element(): SchemaType {
    return this.inner!;
  }

  isFixed(): bool {
    this.computeSize();
    return this.fixed;
  }

  /** Bytes in a parent's fixed area: the size of a fixed type, else 4 (docs/formats.md §1.1). */
  slotSize(): u32 {
    this.computeSize();
    return this.fixedSize;
  }

  /** An Option (also through Custom), whose absent value has slot offset 1. */
  isOption(): bool {
    return this.kind == TypeKind.Option || (this.kind == TypeKind.Custom && this.element.isOption());
  }

  /** A List (also through Custom): an empty one is offset 0 in its slot. */
  isContainer(): bool {
    return this.kind == TypeKind.List || (this.kind == TypeKind.Custom && this.element.isContainer());
  }

  private computeSize(): void {
    if (this.sized) return;
    this.sized = true; // a type reached again while sizing itself is variable
    let fixed = false;
    let size: u32 = 4;
    if (this.kind == TypeKind.Int) {
      fixed = true;
      size = <u32>((this.bits + 7) / 8);
    } else if (this.kind == TypeKind.Float) {
      fixed = true;
      size = <u32>this.floatSize;
    } else if (this.kind == TypeKind.Struct) {
      fixed = true;
      size = 0;
      for (let i = 0; i < this.members.length && fixed; i++) {
        fixed = this.members[i].type.isFixed();
        size += this.members[i].type.slotSize();
      }
      if (!fixed) size = 4;
    } else if (this.kind == TypeKind.Array) {
      fixed = this.element.isFixed();
      size = fixed ? this.length * this.element.slotSize() : 4;
    } else if (this.kind == TypeKind.Custom) {
      fixed = this.element.isFixed();
      size = this.element.slotSize();
    }
    this.fixed = fixed;
    this.fixedSize = size;
  }
}

/** The definitions every schema may use without defining them (a schema's own win). */
const BUILTIN_TYPES = `{
  "u8": {"Int": {"bits": 8, "isSigned": false}}, "u16": {"Int": {"bits": 16, "isSigned": false}},
  "u32": {"Int": {"bits": 32, "isSigned": false}}, "u64": {"Int": {"bits": 64, "isSigned": false}},
  "i8": {"Int": {"bits": 8, "isSigned": true}}, "i16": {"Int": {"bits": 16, "isSigned": true}},
  "i32": {"Int": {"bits": 32, "isSigned": true}}, "i64": {"Int": {"bits": 64, "isSigned": true}},
  "f32": {"Float": {"exp": 8, "mantissa": 24}}, "f64": {"Float": {"exp": 11, "mantissa": 53}},
  "bool": {"Custom": {"type": {"Int": {"bits": 1, "isSigned": false}}, "id": "bool"}},
  "string": {"Custom": {"type": {"List": "u8"}, "id": "string"}},
  "bytes": {"Custom": {"type": {"List": "u8"}, "id": "hex"}},
  "Checksum256": {"Custom": {"type": {"Array": {"type": "u8", "len": 32}}, "id": "hex"}},
  "AccountNumber": {"Custom": {"type": {"Struct": {"value": "u64"}}, "id": "AccountNumber"}},
  "MethodNumber": {"Custom": {"type": "u64", "id": "MethodNumber"}},
  "TimePointSec": {"Custom": {"type": "i64", "id": "TimePointSec"}},
  "TimePointUSec": {"Custom": {"type": "i64", "id": "TimePointUSec"}}
}`;

let builtins: JsonValue | null = null;

function builtinDefinition(name: string): JsonValue | null {
  if (builtins === null) builtins = parseJson(BUILTIN_TYPES);
  return builtins!.get(name);
}

function wholeNumber(json: JsonValue | null): i64 {
  if (json === null) return -1;
  if (json.kind == JsonKind.Number || json.kind == JsonKind.String) {
    const n = parseFloat(json.text);
    if (!isNaN(n) && Math.floor(n) == n && n >= 0 && n <= <f64>u32.MAX_VALUE) return <i64>n;
  }
  return -1;
}

/**
 * Resolves type JSON against a schema's `types` map; null (with `error` set) for a reference to
 * an undefined name or a malformed type.
 */
export class TypeResolver {
  private named: Map<string, SchemaType> = new Map<string, SchemaType>();
  error: string = "";

  constructor(private types: JsonValue | null) {}

  resolve(json: JsonValue): SchemaType | null {
    if (json.kind == JsonKind.String) return this.reference(json.text);
    const t = new SchemaType();
    return this.define(t, json) ? t : null;
  }

  private reference(name: string): SchemaType | null {
    if (this.named.has(name)) return this.named.get(name);
    const types = this.types;
    let definition = types !== null ? types.get(name) : null;
    if (definition === null) definition = builtinDefinition(name);
    if (definition === null) {
      this.fail("type " + name + " is not defined");
      return null;
    }
    // Entered before it is defined, so recursive types refer to themselves.
    const t = new SchemaType();
    this.named.set(name, t);
    return this.define(t, definition) ? t : null;
  }

  /** Keeps the first error; false. */
  private fail(message: string): bool {
    if (this.error.length == 0) this.error = message;
    return false;
  }

  private members(json: JsonValue, into: SchemaType): bool {
    if (json.kind == JsonKind.Array) {
      for (let i = 0; i < json.items.length; i++) {
        const t = this.resolve(json.items[i]);
        if (t === null) return false;
        into.members.push(new Member("", t));
      }
      return true;
    }
    if (json.kind != JsonKind.Object) return false;
    for (let i = 0; i < json.keys.length; i++) {
      const t = this.resolve(json.values[i]);
      if (t === null) return false;
      into.members.push(new Member(json.keys[i], t));
    }
    return true;
  }

  /** Fills `t` from a definition; an alias (a name) copies the named type. */
  private define(t: SchemaType, json: JsonValue): bool {
    if (json.kind == JsonKind.String) {
      const target = this.reference(json.text);
      if (target === null) return false;
      // An alias of an alias still being defined (a cycle of names) has no kind yet.
      if (target === t || (target.kind == TypeKind.Int && target.bits == 0)) return this.fail("type " + json.text + " is an alias cycle");
      t.kind = target.kind;
      t.bits = target.bits;
      t.isSigned = target.isSigned;
      t.floatSize = target.floatSize;
      t.members = target.members;
      t.inner = target.inner;
      t.length = target.length;
      t.id = target.id;
      return true;
    }
    if (json.kind != JsonKind.Object || json.keys.length != 1) return this.fail("a type is a name or an object with one key");
    const kind = json.keys[0];
    const body = json.values[0];
    let ok = false;
    if (kind == "Int") {
      t.kind = TypeKind.Int;
      const bits = wholeNumber(body.get("bits"));
      const signed = body.get("isSigned");
      t.bits = <i32>bits;
      t.isSigned = signed !== null && signed.kind == JsonKind.Bool && signed.boolean;
      ok = bits >= 1 && bits <= 64;
    } else if (kind == "Float") {
      t.kind = TypeKind.Float;
      const exp = wholeNumber(body.get("exp"));
      const mantissa = wholeNumber(body.get("mantissa"));
      t.floatSize = exp == 8 && mantissa == 24 ? 4 : exp == 11 && mantissa == 53 ? 8 : 0;
      ok = t.floatSize != 0;
    } else if (kind == "Struct" || kind == "Object" || kind == "Variant" || kind == "Tuple") {
      t.kind = kind == "Struct" ? TypeKind.Struct : kind == "Object" ? TypeKind.Object : kind == "Variant" ? TypeKind.Variant : TypeKind.Tuple;
      ok = this.members(body, t);
    } else if (kind == "Array") {
      t.kind = TypeKind.Array;
      const element = body.get("type");
      const length = wholeNumber(body.get("len"));
      t.length = <u32>length;
      t.inner = element !== null ? this.resolve(element) : null;
      ok = t.inner !== null && length >= 0;
    } else if (kind == "List" || kind == "Option" || kind == "FracPack") {
      t.kind = kind == "List" ? TypeKind.List : kind == "Option" ? TypeKind.Option : TypeKind.FracPack;
      t.inner = this.resolve(body);
      ok = t.inner !== null;
    } else if (kind == "Custom") {
      t.kind = TypeKind.Custom;
      const underlying = body.get("type");
      const id = body.get("id");
      t.id = id !== null && id.kind == JsonKind.String ? id.text : "";
      t.inner = underlying !== null ? this.resolve(underlying) : null;
      ok = t.inner !== null;
    }
    return ok || this.fail("malformed " + kind + " type");
  }
}
