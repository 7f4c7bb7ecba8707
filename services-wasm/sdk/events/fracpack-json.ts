// fracpack to JSON by a run-time schema type (docs/formats.md §1.4 decoding rules, §3 JSON mapping):
// 64-bit integers as decimal strings, accounts and method numbers as names, time points as
// text, bytes as upper-case hex, absent options as null. Unlike `unpack`, bad data does not
// abort: the decoder answers null and says why, so a service can report an event that does not
// decode (docs/serving.md §2 `event_unpack_ok`). A `map` is shown as its underlying list.

import { floatText } from "../graphql/float";
import { bytesToHex } from "../hex";
import { JsonKind, JsonValue } from "../json/value";
import { formatTimePointSec, formatTimePointUSec } from "../json/time";
import { accountName, isValidAccountNumber } from "../names/account";
import { methodName } from "../names/method";
import { decodeUtf8, isValidUtf8 } from "../utf8";
import { SchemaType, TypeKind } from "./schema-type";

function jsonOf(kind: JsonKind, text: string = ""): JsonValue {
  const v = new JsonValue();
  v.kind = kind;
  v.text = text;
  return v;
}

function jsonBool(value: bool): JsonValue {
  const v = jsonOf(JsonKind.Bool);
  v.boolean = value;
  return v;
}

/** A float as docs/formats.md §3 writes it: a number, or a string for the non-finite ones. */
function jsonFloat(value: f64): JsonValue {
  if (isFinite(value)) return jsonOf(JsonKind.Number, floatText(value));
  return jsonOf(JsonKind.String, isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
}

/** `string` over a List of bytes, or `hex` over a List, a FracPack or a fixed type: shown from the raw bytes. */
function isBytesCustom(t: SchemaType): bool {
  if (t.kind != TypeKind.Custom) return false;
  const inner = t.element;
  if (t.id == "string") return inner.kind == TypeKind.List && inner.element.isFixed() && inner.element.slotSize() == 1;
  return t.id == "hex" && (inner.isFixed() || inner.kind == TypeKind.FracPack || (inner.kind == TypeKind.List && inner.element.isFixed()));
}

/**
 * A Custom shown from one 8-byte integer (accounts, method numbers, time points): the integer, or
 * a struct of it alone, as psibase writes names (`{value: u64}`).
 */
function isNumberCustom(t: SchemaType): bool {
  let inner = t.element;
  if (inner.kind == TypeKind.Struct && inner.members.length == 1) inner = inner.members[0].type;
  return (t.id == "AccountNumber" || t.id == "MethodNumber" || t.id == "TimePointSec" || t.id == "TimePointUSec")
    && inner.kind == TypeKind.Int && inner.slotSize() == 8;
}

export class FracpackJson {
  private base: usize;
  private pos: u32 = 0;
  private end: u32;
  private known: bool = true;
  /** The decoded value, or null when the data is bad (`error` says why). */
  value: JsonValue | null = null;
  error: string = "";

  private constructor(private data: Uint8Array) {
    this.base = data.dataStart;
    this.end = <u32>data.length;
  }

  /** Decodes `data`, a whole top-level value of `type` (rule 8). */
  static decode(type: SchemaType, data: Uint8Array): FracpackJson {
    const d = new FracpackJson(data);
    const value = d.full(type);
    d.value = value !== null && d.known && d.pos != d.end ? d.fail("bytes left over after the value") : value;
    return d;
  }

  private fail(message: string): JsonValue | null {
    if (this.error.length == 0) this.error = message;
    return null;
  }

  private inside(at: u32, n: u32): bool {
    return <u64>at + n <= <u64>this.end;
  }

  /** Takes `n` bytes at the heap cursor; their position, or -1 past the end. */
  private take(n: u32): i64 {
    const at = this.pos;
    if (!this.inside(at, n)) return -1;
    this.pos = at + n;
    return at;
  }

  private u32At(at: u32): u32 {
    return load<u32>(this.base + at);
  }

  /** Moves the heap cursor to the pointer in the slot at `slotPos` (rule 2); false if it may not go there. */
  private follow(slotPos: u32): bool {
    const target = <u64>slotPos + this.u32At(slotPos);
    if (target > <u64>this.end || (this.known ? target != <u64>this.pos : target < <u64>this.pos)) return false;
    this.pos = <u32>target;
    this.known = true;
    return true;
  }

  private unsignedAt(at: u32, size: u32): u64 {
    let value: u64 = 0;
    for (let i: u32 = 0; i < size; i++) value |= (<u64>load<u8>(this.base + at + i)) << (<u64>(8 * i));
    return value;
  }

  private int(t: SchemaType, at: u32): JsonValue {
    const size = t.slotSize();
    const raw = this.unsignedAt(at, size);
    const shift = <u64>(64 - 8 * size);
    if (size > 4) return jsonOf(JsonKind.String, t.isSigned ? (<i64>raw).toString() : raw.toString());
    return jsonOf(JsonKind.Number, t.isSigned ? ((<i64>(raw << shift)) >> shift).toString() : raw.toString());
  }

  /** A fixed value whose bytes [at, at + slotSize) lie inside the current body. */
  private fixedValue(t: SchemaType, at: u32): JsonValue | null {
    if (t.kind == TypeKind.Int) return this.int(t, at);
    if (t.kind == TypeKind.Float) return jsonFloat(t.floatSize == 4 ? <f64>load<f32>(this.base + at) : load<f64>(this.base + at));
    if (t.kind == TypeKind.Custom) return this.fixedCustom(t, at);
    return this.members(t, at);
  }

  /**
   * A Struct's or Array's members laid out from `at`: slots, which for a fixed Struct or Array
   * (all of whose members are fixed) are the values themselves.
   */
  private members(t: SchemaType, at: u32): JsonValue | null {
    const v = jsonOf(t.kind == TypeKind.Struct ? JsonKind.Object : JsonKind.Array);
    const count = t.kind == TypeKind.Struct ? <u32>t.members.length : t.length;
    for (let i: u32 = 0; i < count; i++) {
      const member = t.kind == TypeKind.Struct ? t.members[i].type : t.element;
      const item = this.slot(member, at);
      if (item === null) return null;
      if (t.kind == TypeKind.Struct) {
        v.keys.push(t.members[i].name);
        v.values.push(item);
      } else {
        v.items.push(item);
      }
      at += member.slotSize();
    }
    return v;
  }

  private fixedCustom(t: SchemaType, at: u32): JsonValue | null {
    const inner = t.element;
    if (t.id == "bool" && inner.kind == TypeKind.Int && inner.slotSize() == 1) {
      const b = load<u8>(this.base + at);
      return b <= 1 ? jsonBool(b == 1) : this.fail("bool must be 0 or 1");
    }
    if (t.id == "hex") {
      const size = t.slotSize();
      return jsonOf(JsonKind.String, bytesToHex(this.data.subarray(at, at + size)));
    }
    if (!isNumberCustom(t)) return this.fixedValue(inner, at);
    const n = this.unsignedAt(at, 8);
    if (t.id == "AccountNumber") {
      if (n >> 8 != 0 && !isValidAccountNumber(n)) return this.fail("invalid account number " + n.toString());
      return jsonOf(JsonKind.String, accountName(n));
    }
    if (t.id == "MethodNumber") return jsonOf(JsonKind.String, methodName(n));
    return jsonOf(JsonKind.String, t.id == "TimePointSec" ? formatTimePointSec(<i64>n) : formatTimePointUSec(<i64>n));
  }

  /** The value whose slot is at `at` (inside its parent's fixed area). */
  private slot(t: SchemaType, at: u32): JsonValue | null {
    if (t.isFixed()) return this.fixedValue(t, at);
    if (t.kind == TypeKind.Custom && !isBytesCustom(t)) return this.slot(t.element, at);
    const offset = this.u32At(at);
    if (t.kind == TypeKind.Option) {
      if (offset == 1) return jsonOf(JsonKind.Null);
      const inner = t.element;
      // A variable inner value that is not an option shares the option's slot (docs/formats.md §1.2).
      if (!inner.isFixed() && !inner.isOption()) return this.slot(inner, at);
      if (offset < 4 || !this.follow(at)) return this.fail("bad option offset " + offset.toString());
      return this.full(inner);
    }
    if (offset == 0) {
      if (!t.isContainer()) return this.fail("offset 0 outside a container");
      return t.kind == TypeKind.List ? jsonOf(JsonKind.Array) : jsonOf(JsonKind.String);
    }
    if (offset < 4 || !this.follow(at)) return this.fail("bad offset " + offset.toString());
    if (t.isContainer() && this.inside(this.pos, 4) && this.u32At(this.pos) == 0) return this.fail("a pointer to an empty container");
    return this.full(t);
  }

  /** The full encoding of a value of type `t` at the heap cursor. */
  private full(t: SchemaType): JsonValue | null {
    if (t.isFixed()) {
      const at = this.take(t.slotSize());
      return at < 0 ? this.fail("value past the end") : this.fixedValue(t, <u32>at);
    }
    if (t.kind == TypeKind.Option) {
      const at = this.take(4);
      return at < 0 ? this.fail("option past the end") : this.slot(t, <u32>at);
    }
    if (t.kind == TypeKind.Custom) return isBytesCustom(t) ? this.bytesCustom(t) : this.full(t.element);
    if (t.kind == TypeKind.List) return this.list(t);
    if (t.kind == TypeKind.Object || t.kind == TypeKind.Tuple) return this.extensible(t);
    if (t.kind == TypeKind.Variant || t.kind == TypeKind.FracPack) return this.sized(t);
    // A variable Struct or Array: the members' slots, then their heap.
    const count = t.kind == TypeKind.Struct ? <u32>t.members.length : t.length;
    let size: u32 = 0;
    for (let i: u32 = 0; i < count; i++) size += t.kind == TypeKind.Struct ? t.members[i].type.slotSize() : t.element.slotSize();
    const start = this.take(size);
    if (start < 0) return this.fail("fixed area past the end");
    return this.members(t, <u32>start);
  }

  /** A length-prefixed byte run [start, start + length); -1 when it does not fit. */
  private lengthPrefixed(): i64 {
    const at = this.take(4);
    if (at < 0) return -1;
    return this.take(this.u32At(<u32>at));
  }

  private bytesCustom(t: SchemaType): JsonValue | null {
    const lengthAt = this.pos;
    const start = this.lengthPrefixed();
    if (start < 0) return this.fail("bytes past the end");
    const length = this.u32At(lengthAt);
    const elementSize = t.element.kind == TypeKind.List ? t.element.element.slotSize() : 1;
    if (elementSize == 0 || length % elementSize != 0) return this.fail("list length is not a multiple of its element size");
    if (t.id == "string") {
      if (!isValidUtf8(this.base + <usize>start, length)) return this.fail("invalid UTF-8");
      return jsonOf(JsonKind.String, decodeUtf8(this.base + <usize>start, length));
    }
    return jsonOf(JsonKind.String, bytesToHex(this.data.subarray(<i32>start, <i32>start + length)));
  }

  private list(t: SchemaType): JsonValue | null {
    const lengthAt = this.pos;
    const start = this.lengthPrefixed();
    if (start < 0) return this.fail("list past the end");
    const length = this.u32At(lengthAt);
    const size = t.element.slotSize();
    if (size == 0 || length % size != 0) return this.fail("list length is not a multiple of its element size");
    const v = jsonOf(JsonKind.Array);
    for (let at = <u32>start; at < <u32>start + length; at += size) {
      const item = this.slot(t.element, at);
      if (item === null) return null;
      v.items.push(item);
    }
    return v;
  }

  /** An Object or Tuple (rules 5 and 6): trailing options may be missing, unknown fields may follow. */
  private extensible(t: SchemaType): JsonValue | null {
    const headerAt = this.take(2);
    if (headerAt < 0) return this.fail("object header past the end");
    const start = this.take(<u32>load<u16>(this.base + <usize>headerAt));
    if (start < 0) return this.fail("object fixed area past the end");
    const fixedEnd = this.pos;
    const v = jsonOf(t.kind == TypeKind.Object ? JsonKind.Object : JsonKind.Array);
    let at = <u32>start;
    let lastIsAbsent = false;
    for (let i = 0; i < t.members.length; i++) {
      const member = t.members[i];
      let item: JsonValue | null;
      if (at + member.type.slotSize() > fixedEnd) {
        if (!member.type.isOption() || at != fixedEnd) return this.fail("member " + member.name + " is missing");
        item = jsonOf(JsonKind.Null);
      } else {
        item = this.slot(member.type, at);
        if (item === null) return null;
        lastIsAbsent = !member.type.isFixed() && this.u32At(at) == 1;
        at += member.type.slotSize();
      }
      if (t.kind == TypeKind.Object) {
        v.keys.push(member.name);
        v.values.push(item);
      } else {
        v.items.push(item);
      }
    }
    if ((fixedEnd - at) % 4 != 0) return this.fail("unknown fields are not whole slots");
    for (; at < fixedEnd; at += 4) {
      const offset = this.u32At(at);
      lastIsAbsent = offset == 1;
      if (offset <= 1) continue;
      if (offset < 4 || !this.follow(at)) return this.fail("bad offset in an unknown field");
      this.known = false; // the unknown value's extent is not known
    }
    return lastIsAbsent ? this.fail("the last member present is an absent option") : v;
  }

  /** A Variant or FracPack: a body of known length that must be consumed exactly (rule 7). */
  private sized(t: SchemaType): JsonValue | null {
    let alternative: i32 = -1;
    if (t.kind == TypeKind.Variant) {
      const indexAt = this.take(1);
      if (indexAt < 0) return this.fail("variant past the end");
      alternative = <i32>load<u8>(this.base + <usize>indexAt);
      if (alternative >= 128 || alternative >= t.members.length) return this.fail("unknown variant alternative " + alternative.toString());
    }
    const lengthAt = this.take(4);
    if (lengthAt < 0 || !this.inside(this.pos, this.u32At(<u32>lengthAt))) return this.fail("body past the end");
    const outerEnd = this.end;
    this.end = this.pos + this.u32At(<u32>lengthAt);
    this.known = true;
    const inner = alternative >= 0 ? t.members[alternative].type : t.element;
    const value = this.full(inner);
    if (value === null) return null;
    if (this.known && this.pos != this.end) return this.fail("bytes left over in a body");
    this.pos = this.end;
    this.end = outerEnd;
    this.known = true;
    if (alternative < 0) return value;
    const name = t.members[alternative].name;
    if (name.startsWith("@")) return value;
    const v = jsonOf(JsonKind.Object);
    v.keys.push(name);
    v.values.push(value);
    return v;
  }
}
