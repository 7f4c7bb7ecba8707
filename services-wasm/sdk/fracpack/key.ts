// The order-preserving key encoding of docs/host-abi.md §8: encoded keys compare bytewise in the
// order of the values. Unsigned integers big-endian; signed integers big-endian with the sign bit
// flipped; strings (and bytes) with 0x00 escaped as 0x00 0x01 and ended by 0x00 0x00; options
// 0x00 when absent, else 0x01 + value (a 1-byte inner type: absent 0x00 0x00, present = the byte
// with 0x00 escaped as 0x00 0x01); records: their members concatenated (record.ts, through the
// __fpWriteKey the transform generates).

import { Writer } from "./writer";
import { isBytes } from "./codec";
import { encodeUtf8 } from "../utf8";
import { abort } from "../abort";

export function writeKey<T>(w: Writer, v: T): void {
  if (isBoolean<T>() || isInteger<T>()) {
    writeIntKey<T>(w, v);
  } else if (isFloat<T>()) {
    abort("a float cannot be a key");
  } else if (isNullable<T>()) {
    writeOptionKey<NonNullable<T>>(w, v === null, changetype<NonNullable<T>>(v));
  } else if (isString<T>()) {
    writeEscaped(w, encodeUtf8(changetype<string>(v)));
  } else if (isBytes<T>()) {
    writeEscaped(w, changetype<Uint8Array>(v));
  } else if (isArray<T>()) {
    abort("a List cannot be a key");
  } else {
    v.__fpWriteKey(w);
  }
}

// Flipping the sign bit maps the signed range onto the unsigned range in the same order.
function intKeyBits<T>(v: T): u64 {
  if (isBoolean<T>()) return v ? 1 : 0;
  return isSigned<T>() ? <u64>v ^ (<u64>1 << (sizeof<T>() * 8 - 1)) : <u64>v;
}

function writeIntKey<T>(w: Writer, v: T): void {
  const size = sizeof<T>();
  const bits = intKeyBits<T>(v);
  if (size == 1) w.u8(<u8>bits);
  else if (size == 2) w.u16BE(<u16>bits);
  else if (size == 4) w.u32BE(<u32>bits);
  else w.u64BE(bits);
}

/** An option's key; `Inner` is the present type (also used by Option<T>). */
export function writeOptionKey<Inner>(w: Writer, absent: bool, inner: Inner): void {
  if (sizeof<Inner>() == 1 && (isBoolean<Inner>() || isInteger<Inner>())) {
    if (absent) {
      w.u16(0);
      return;
    }
    const byte = <u8>intKeyBits<Inner>(inner);
    w.u8(byte);
    if (byte == 0) w.u8(1);
    return;
  }
  if (absent) {
    w.u8(0);
    return;
  }
  w.u8(1);
  writeKey<Inner>(w, inner);
}

function writeEscaped(w: Writer, bytes: Uint8Array): void {
  for (let i = 0; i < bytes.length; i++) {
    const b = unchecked(bytes[i]);
    w.u8(b);
    if (b == 0) w.u8(1);
  }
  w.u16(0);
}

/** The key encoding of `v` on its own. */
export function encodeKey<T>(v: T): Uint8Array {
  const w = new Writer(16);
  writeKey<T>(w, v);
  return w.finish();
}
