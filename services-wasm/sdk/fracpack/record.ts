// Records: classes whose encoding the SDK transform generates from their fields, in declaration
// order. The transform adds these members (see transform/records.mjs):
//   __fpRecord(): u32              OBJECT, STRUCT or VARIANT
//   __fpMemberCount(): i32
//   __fpMembersSize(): u32         sum of the members' fixed sizes
//   __fpMembersVariable(): bool    whether any member is variable
//   __fpWrite(o: MemberWriter)     o.member<Ti>(this.fi) for every field; a Variant instead
//                                  calls o.alternative<Ti>(i, this.fi) for field i = this.tag
//   __fpRead(o: MemberReader): C   a new C whose fields are o.member<Ti>(); a Variant instead
//                                  sets tag = o.tag and only field number o.tag, to o.alternative<Ti>()
//   and codec.ts's and key.ts's protocol (__fpFixedSize, __fpIsVariable, __fpWriteSlot,
//   __fpWriteHeap, __fpWriteFull, __fpReadSlot, __fpReadFull, __fpWriteKey), each calling the
//   record function of this file, so that the generic encoders reach records without importing it
// and a Variant class gets a `tag: u8` field: the index of the alternative it holds (the other
// alternatives' fields stay 0 / null).
// The layout methods are called on a null receiver; they do not touch `this`.
//
// Object (docs/formats.md §1.3): u16 fixed-area length, the slots of the present members (trailing
// absent options dropped), heap. Struct: slots then heap, no header (fixed when every member is).
// Variant: u8 tag, u32 body length, body = the alternative's full encoding.

import { Writer } from "./writer";
import { Reader } from "./reader";
import { absentValue, fixedSize, isAbsent, isOptional, readFull, readSlot, writeFull, writeHeap, writeSlot } from "./codec";
import { writeKey } from "./key";
import { abort } from "../abort";

export const OBJECT: u32 = 0;
export const STRUCT: u32 = 1;
export const VARIANT: u32 = 2;

@inline export function isRecord<T>(): bool {
  return isReference<T>() && !isNullable<T>() && isDefined(changetype<T>(0).__fpRecord);
}

export function recordFixedSize<T>(): u32 {
  return recordIsVariable<T>() ? 4 : changetype<T>(0).__fpMembersSize();
}

export function recordIsVariable<T>(): bool {
  const layout = changetype<T>(0);
  return layout.__fpRecord() != STRUCT || layout.__fpMembersVariable();
}

// ---- writing ----

const MEASURE = 0; // find the present members of an Object and their fixed-area length
const SLOTS = 1;
const HEAPS = 2;
const ALTERNATIVE = 3; // a Variant: tag, length, the alternative's full encoding
const KEY = 4; // the order-preserving key encoding: members concatenated

/** Visits a record's members for one pass of writing; see __fpWrite. */
export class MemberWriter {
  private mode: i32 = MEASURE;
  private index: i32 = 0;
  /** Object: members up to the last one that is not an absent option; Struct: all. */
  private present: i32 = 0;
  /** Object: the fixed-area length of the present members. */
  private fixedLength: u32 = 0;
  private total: u32 = 0;
  private slotPos: u32 = 0;

  constructor(readonly w: Writer) {}

  member<T>(v: T): void {
    const i = this.index++;
    const mode = this.mode;
    if (mode == MEASURE) {
      this.total += fixedSize<T>();
      if (!isAbsent<T>(v)) {
        this.present = i + 1;
        this.fixedLength = this.total;
      }
    } else if (mode == SLOTS) {
      if (i < this.present) writeSlot<T>(this.w, v);
    } else if (mode == HEAPS) {
      if (i < this.present) {
        writeHeap<T>(this.w, v, this.slotPos);
        this.slotPos += fixedSize<T>();
      }
    } else {
      writeKey<T>(this.w, v);
    }
  }

  /** A Variant holding alternative `tag`: the tag, the body length, the body. */
  alternative<T>(tag: u8, v: T): void {
    if (this.mode != ALTERNATIVE) abort("fracpack: a Variant cannot be a key");
    const w = this.w;
    w.u8(tag);
    const lengthPos = w.slot();
    writeFull<T>(w, v);
    w.patchU32(lengthPos, w.pos - lengthPos - 4);
  }

  /** A Variant whose tag names no alternative. */
  noAlternative(tag: u8): void {
    abort("fracpack: variant tag " + tag.toString() + " names no alternative");
  }

  private pass<T>(v: T, mode: i32): void {
    this.mode = mode;
    this.index = 0;
    v.__fpWrite(this);
  }

  /** Slots then heaps of the first `present` members. */
  private members<T>(v: T): void {
    this.slotPos = this.w.pos;
    this.pass<T>(v, SLOTS);
    this.pass<T>(v, HEAPS);
  }

  writeObject<T>(v: T): void {
    this.pass<T>(v, MEASURE);
    if (this.fixedLength > 0xffff) abort("fracpack: " + nameof<T>() + ": fixed area exceeds 65535 bytes");
    this.w.u16(<u16>this.fixedLength);
    this.members<T>(v);
  }

  writeStruct<T>(v: T): void {
    this.present = v.__fpMemberCount();
    this.members<T>(v);
  }

  writeVariant<T>(v: T): void {
    this.pass<T>(v, ALTERNATIVE);
  }

  writeKey<T>(v: T): void {
    this.pass<T>(v, KEY);
  }
}

export function writeRecordFull<T>(w: Writer, v: T): void {
  const kind = v.__fpRecord();
  const o = new MemberWriter(w);
  if (kind == OBJECT) o.writeObject<T>(v);
  else if (kind == STRUCT) o.writeStruct<T>(v);
  else o.writeVariant<T>(v);
}

export function writeRecordSlot<T>(w: Writer, v: T): void {
  if (recordIsVariable<T>()) w.slot();
  else writeRecordFull<T>(w, v);
}

export function writeRecordHeap<T>(w: Writer, v: T, slotPos: u32): void {
  if (!recordIsVariable<T>()) return;
  w.pointHere(slotPos);
  writeRecordFull<T>(w, v);
}

/** Key encoding of a record: its members' key encodings concatenated (docs/host-abi.md §8). */
export function writeRecordKey<T>(w: Writer, v: T): void {
  new MemberWriter(w).writeKey<T>(v);
}

// ---- reading ----

/** Reads a record's members in order; see __fpRead. */
export class MemberReader {
  /** Variant: the alternative held. */
  tag: u8 = 0;
  private index: i32 = 0;
  /** Whether the last slot read held 1 (an absent option), which may not end an Object. */
  private lastIsAbsent: bool = false;

  constructor(readonly r: Reader, readonly kind: u32, private p: u32, readonly fixedEnd: u32) {}

  member<T>(): T {
    const i = this.index++;
    const size = fixedSize<T>();
    if (this.kind == OBJECT && <u64>this.p + size > <u64>this.fixedEnd) {
      // The fixed area ended early: only trailing options may be missing, and it ends exactly.
      if (!isOptional<T>()) this.r.fail("non-optional member " + i.toString() + " is missing");
      if (this.p != this.fixedEnd) this.r.fail("fixed area ends inside member " + i.toString());
      return absentValue<T>();
    }
    this.lastIsAbsent = isOptional<T>() && this.r.u32At(this.p) == 1;
    const v = readSlot<T>(this.r, this.p);
    this.p += size;
    return v;
  }

  /** A Variant's alternative: its full encoding, inside the body. */
  alternative<T>(): T {
    return readFull<T>(this.r);
  }

  /** After the known members of an Object: skips unknown fields (rule 5), checks rule 6. */
  finishObject(what: string): void {
    const r = this.r;
    if (this.p < this.fixedEnd) {
      if (!r.compat) r.fail(what + ": unknown fields (not allowed in strict mode)");
      if ((this.fixedEnd - this.p) % 4 != 0) r.fail(what + ": unknown fields are not a multiple of 4 bytes");
      for (let at = this.p; at < this.fixedEnd; at += 4) {
        const offset = r.u32At(at);
        this.lastIsAbsent = offset == 1;
        if (offset > 1) {
          r.follow(at, what + " unknown field");
          r.known = false;
        }
      }
    }
    if (this.lastIsAbsent) r.fail(what + ": the last slot of the fixed area is an absent option");
  }
}

export function readRecordFull<T>(r: Reader): T {
  const layout = changetype<T>(0);
  const kind = layout.__fpRecord();
  if (kind == OBJECT) {
    const at = r.take(2, nameof<T>());
    const fixedStart = at + 2;
    const fixedLength = <u32>r.u16At(at);
    r.take(fixedLength, nameof<T>());
    const o = new MemberReader(r, OBJECT, fixedStart, fixedStart + fixedLength);
    const v = layout.__fpRead(o);
    o.finishObject(nameof<T>());
    return v;
  }
  if (kind == STRUCT) {
    return readStructAt<T>(r, r.take(layout.__fpMembersSize(), nameof<T>()));
  }
  const at = r.take(5, nameof<T>());
  const o = new MemberReader(r, VARIANT, 0, 0);
  o.tag = r.u8At(at);
  if (<i32>o.tag >= layout.__fpMemberCount()) r.fail(nameof<T>() + ": unknown variant tag " + o.tag.toString());
  const outerEnd = r.enterBody(at + 5, r.u32At(at + 1), nameof<T>());
  const v = layout.__fpRead(o);
  r.leaveBody(outerEnd, nameof<T>());
  return v;
}

function readStructAt<T>(r: Reader, at: u32): T {
  const layout = changetype<T>(0);
  return layout.__fpRead(new MemberReader(r, STRUCT, at, at + layout.__fpMembersSize()));
}

export function readRecordSlot<T>(r: Reader, at: u32): T {
  if (!recordIsVariable<T>()) return readStructAt<T>(r, at);
  r.follow(at, nameof<T>());
  return readRecordFull<T>(r);
}
