// Generic fracpack encoding (docs/formats.md §1) of AssemblyScript values, chosen at compile time by
// type:
//   bool, u8..u64, i8..i64      Int (bool: 1 byte, 0 or 1)
//   f32, f64                    Float
//   string                      string (List of u8, UTF-8)
//   Uint8Array                  bytes (List of u8)
//   Array<T>                    List<T>
//   T | null                    Option<T> (T a reference type)
//   classes                     classes that implement this protocol: records, for which the SDK
//                               transform generates it (@fracpack Object, @struct Struct,
//                               @variant Variant; it calls record.ts, so this file does not import
//                               it), and classes that implement it themselves (Option<T>, Checksum256):
//                                 __fpFixedSize(): u32, __fpIsVariable(): bool  (null receiver)
//                                 __fpWriteSlot(w), __fpWriteHeap(w, slotPos), __fpWriteFull(w)
//                                 __fpReadSlot(r, at): C, __fpReadFull(r): C    (null receiver)
//                                 __fpWriteKey(w)
//                               and, for an option type, __fpNone(): C and __fpIsAbsent(): bool
// A type is fixed or variable; a variable type sits in its parent's fixed area as a 4-byte slot
// (offset 0 = empty container, 1 = absent option, else a pointer to its heap encoding).

import { Writer } from "./writer";
import { Reader } from "./reader";
import { decodeUtf8, encodeUtf8Into, isValidUtf8, utf8Length } from "../utf8";
import { abort } from "../abort";

// ---- layout (docs/formats.md §1.1) ----

/** Bytes a T occupies in a parent's fixed area: its size if fixed, else 4. */
export function fixedSize<T>(): u32 {
  if (isBoolean<T>()) return 1;
  if (isInteger<T>() || isFloat<T>()) return sizeof<T>();
  if (isNullable<T>() || isString<T>() || isArray<T>() || isBytes<T>()) return 4;
  return changetype<T>(0).__fpFixedSize();
}

export function isVariable<T>(): bool {
  if (isBoolean<T>() || isInteger<T>() || isFloat<T>()) return false;
  if (isNullable<T>() || isString<T>() || isArray<T>() || isBytes<T>()) return true;
  return changetype<T>(0).__fpIsVariable();
}

/** Option types: `T | null` and custom classes with an absent value (`__fpNone`, Option<T>). */
export function isOptional<T>(): bool {
  if (!isReference<T>()) return false;
  return isNullable<T>() || isDefined(changetype<T>(0).__fpNone);
}

@inline export function isBytes<T>(): bool {
  return isReference<T>() && changetype<NonNullable<T>>(0) instanceof Uint8Array;
}

/** Whether `v` is an absent option (trailing absent options of an Object are dropped). */
export function isAbsent<T>(v: T): bool {
  if (!isReference<T>()) return false;
  if (isNullable<T>()) return v === null;
  if (isDefined(changetype<T>(0).__fpNone)) return v.__fpIsAbsent();
  return false;
}

/** The absent value of an option type (a missing trailing member decodes to it). */
export function absentValue<T>(): T {
  if (isNullable<T>()) return changetype<T>(0);
  if (isReference<T>() && isDefined(changetype<T>(0).__fpNone)) return changetype<T>(0).__fpNone();
  return zeroValue<T>();
}

/** 0, false or null (what an empty Option<T> holds). */
export function zeroValue<T>(): T {
  if (isReference<T>()) return changetype<T>(0);
  return <T>0;
}

// ---- writing ----

/** Writes the slot: a fixed value inline, else 0 / 1 or a placeholder `writeHeap` patches. */
export function writeSlot<T>(w: Writer, v: T): void {
  if (isBoolean<T>()) {
    w.u8(v ? 1 : 0);
  } else if (isInteger<T>() || isFloat<T>()) {
    store<T>(w.reserve(sizeof<T>()), v);
    w.pos += sizeof<T>();
  } else if (isNullable<T>()) {
    writeOptionSlot<NonNullable<T>>(w, v === null, changetype<NonNullable<T>>(v));
  } else if (isString<T>() || isArray<T>() || isBytes<T>()) {
    if (containerIsEmpty<T>(v)) w.u32(0);
    else w.slot();
  } else {
    v.__fpWriteSlot(w);
  }
}

/** Writes the heap part of a variable value and points the slot at `slotPos` to it. */
export function writeHeap<T>(w: Writer, v: T, slotPos: u32): void {
  if (isBoolean<T>() || isInteger<T>() || isFloat<T>()) return;
  if (isNullable<T>()) {
    writeOptionHeap<NonNullable<T>>(w, v === null, changetype<NonNullable<T>>(v), slotPos);
  } else if (isString<T>() || isArray<T>() || isBytes<T>()) {
    if (containerIsEmpty<T>(v)) return;
    w.pointHere(slotPos);
    writeFull<T>(w, v);
  } else {
    v.__fpWriteHeap(w, slotPos);
  }
}

/** Writes the full encoding (what a slot points to, or a top-level value). */
export function writeFull<T>(w: Writer, v: T): void {
  if (isBoolean<T>() || isInteger<T>() || isFloat<T>()) {
    writeSlot<T>(w, v);
  } else if (isNullable<T>()) {
    const slotPos = w.pos;
    writeSlot<T>(w, v);
    writeHeap<T>(w, v, slotPos);
  } else if (isString<T>()) {
    const s = changetype<string>(v);
    const length = utf8Length(s);
    w.u32(length);
    w.pos += encodeUtf8Into(s, w.reserve(length));
  } else if (isBytes<T>()) {
    const b = changetype<Uint8Array>(v);
    w.u32(<u32>b.length);
    w.bytes(b);
  } else if (isArray<T>()) {
    writeList<valueof<T>>(w, changetype<Array<valueof<T>>>(v));
  } else {
    v.__fpWriteFull(w);
  }
}

function containerIsEmpty<T>(v: T): bool {
  if (isString<T>()) return changetype<string>(v).length == 0;
  if (isBytes<T>()) return changetype<Uint8Array>(v).length == 0;
  return changetype<Array<valueof<T>>>(v).length == 0;
}

function writeList<E>(w: Writer, list: Array<E>): void {
  const size = fixedSize<E>();
  if (size == 0) abort("fracpack: a List of a zero-size type has no defined length");
  const count = list.length;
  w.u32(<u32>count * size);
  const start = w.pos;
  for (let i = 0; i < count; i++) writeSlot<E>(w, unchecked(list[i]));
  if (!isVariable<E>()) return;
  for (let i = 0; i < count; i++) writeHeap<E>(w, unchecked(list[i]), start + <u32>i * 4);
}

// ---- reading ----

/** Reads the slot at `at`, following its offset for a variable type. */
export function readSlot<T>(r: Reader, at: u32): T {
  if (isBoolean<T>()) {
    const b = r.u8At(at);
    if (b > 1) r.fail("bool must be 0 or 1, got " + b.toString());
    return <T>(b != 0);
  } else if (isInteger<T>() || isFloat<T>()) {
    return r.numberAt<T>(at);
  } else if (isNullable<T>()) {
    if (optionSlotIsAbsent(r, at)) return changetype<T>(0);
    return changetype<T>(readOptionInner<NonNullable<T>>(r, at));
  } else if (isString<T>() || isArray<T>() || isBytes<T>()) {
    if (r.u32At(at) == 0) return emptyContainer<T>();
    r.follow(at, "List");
    r.need(r.pos, 4, "List");
    if (r.u32At(r.pos) == 0) r.fail("List: a pointer to an empty list must be offset 0");
    return readFull<T>(r);
  } else {
    return changetype<T>(0).__fpReadSlot(r, at);
  }
}

/** Reads the full encoding at the heap cursor, advancing it. */
export function readFull<T>(r: Reader): T {
  if (isBoolean<T>() || isInteger<T>() || isFloat<T>()) {
    return readSlot<T>(r, r.take(sizeof<T>(), "Int"));
  } else if (isNullable<T>()) {
    return readSlot<T>(r, r.take(4, "Option"));
  } else if (isString<T>()) {
    const length = readListLength(r, 1);
    if (r.failed) return changetype<T>("");
    const start = r.pos - length;
    if (!isValidUtf8(r.base + start, length)) r.fail("string is not valid UTF-8");
    return changetype<T>(decodeUtf8(r.base + start, length));
  } else if (isBytes<T>()) {
    const length = readListLength(r, 1);
    if (r.failed) return changetype<T>(new Uint8Array(0));
    const out = new Uint8Array(length);
    memory.copy(out.dataStart, r.base + r.pos - length, length);
    return changetype<T>(out);
  } else if (isArray<T>()) {
    return changetype<T>(readList<valueof<T>>(r));
  } else {
    return changetype<T>(0).__fpReadFull(r);
  }
}

function emptyContainer<T>(): T {
  if (isString<T>()) return changetype<T>("");
  if (isBytes<T>()) return changetype<T>(new Uint8Array(0));
  return changetype<T>(new Array<valueof<T>>(0));
}

/** Reads a List's u32 byte length at the cursor and moves the cursor past its content. */
function readListLength(r: Reader, elementSize: u32): u32 {
  const at = r.take(4, "List");
  const length = r.u32At(at);
  if (length % elementSize != 0) r.fail("List: byte length " + length.toString() + " is not a multiple of " + elementSize.toString());
  r.take(length, "List");
  return length;
}

function readList<E>(r: Reader): Array<E> {
  const size = fixedSize<E>();
  if (size == 0) {
    r.fail("a List of a zero-size type has no defined length");
    return new Array<E>(0);
  }
  const length = readListLength(r, size);
  if (r.failed) return new Array<E>(0);
  const start = r.pos - length;
  const count = <i32>(length / size);
  const out = new Array<E>(count);
  for (let i = 0; i < count; i++) unchecked(out[i] = readSlot<E>(r, start + <u32>i * size));
  return out;
}

// ---- options (docs/formats.md §1.2), shared by `T | null` and Option<T> ----

// Option<Inner> shares its slot with a present inner value when the inner type is variable and
// not itself an option, so Some([]) is offset 0.
function optionShares<Inner>(): bool {
  return isVariable<Inner>() && !isOptional<Inner>();
}

export function writeOptionSlot<Inner>(w: Writer, absent: bool, inner: Inner): void {
  if (absent) w.u32(1);
  else if (optionShares<Inner>()) writeSlot<Inner>(w, inner);
  else w.slot();
}

export function writeOptionHeap<Inner>(w: Writer, absent: bool, inner: Inner, slotPos: u32): void {
  if (absent) return;
  if (optionShares<Inner>()) {
    writeHeap<Inner>(w, inner, slotPos);
  } else {
    w.pointHere(slotPos);
    writeFull<Inner>(w, inner);
  }
}

export function optionSlotIsAbsent(r: Reader, at: u32): bool {
  return r.u32At(at) == 1;
}

/** The value of a present option whose slot is at `at`. */
export function readOptionInner<Inner>(r: Reader, at: u32): Inner {
  if (optionShares<Inner>()) return readSlot<Inner>(r, at);
  r.follow(at, "Option");
  return readFull<Inner>(r);
}

// ---- top level ----

/** Packs a value (top-level values are always written in full). */
export function pack<T>(value: T): Uint8Array {
  const w = new Writer();
  writeFull<T>(w, value);
  return w.finish();
}

/**
 * Unpacks a value that must fill `data` exactly (rule 8). Unknown fields of extensible types
 * (data from a newer version of a type) are accepted unless `strict`. Bad data aborts with a
 * fracpack message, or with `invalid` when given (for errors the caller must word exactly).
 */
export function unpack<T>(data: Uint8Array, strict: bool = false, invalid: string | null = null): T {
  const r = new Reader(data, !strict, invalid);
  return readWhole<T>(r);
}

/**
 * Whether `data` holds exactly one valid T (as `unpack` would accept it), without aborting: the
 * first problem found, or null. For data a client sent, whose mistakes are answered, not aborted.
 */
export function packedProblem<T>(data: Uint8Array, strict: bool = false): string | null {
  const r = new Reader(data, !strict, null, true);
  readWhole<T>(r);
  return r.problem;
}

function readWhole<T>(r: Reader): T {
  const value = readFull<T>(r);
  if (r.known && r.pos != r.end) r.fail(nameof<T>() + ": " + (r.end - r.pos).toString() + " bytes left over after the value");
  return value;
}
