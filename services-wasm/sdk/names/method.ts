// Method numbers from names and back (docs/formats.md §5), for services that take method names as
// text (the pack endpoints) or show them (decoded events): an order-1 arithmetic code of the name
// in at most 64 bits, or SeaHash of the name with bit 56 set when the whole code, final bits
// included, does not fit (shown as `#` and 16 hash digits); a code is never cut short. The
// frequency table and the rules are host-api's (host-api/names/method.ts).

import { MethodNumber } from "./types";
import { FREQUENCIES } from "./method-frequencies";

const SYMBOLS: i32 = 27;
const TOTAL: i32 = 32767;
const MAX_CODE: i32 = 0x1ffff;
const HALF: i32 = 0x10000;
const QUARTER: i32 = 0x8000;
const THREE_QUARTERS: i32 = 0x18000;
const MAX_BITS: i32 = 64;
const HASH_FLAG: u64 = 1 << 56;
/** The letters by symbol (1..26, most frequent first); the first 16 are also the hash digits. */
const SYMBOL_CHARS = "\0eaiotnrslcuhdpmygbfwvkzxqj";

/** Symbol of a char code: letters (either case) 1..26 by frequency, digits 1..10, '_' 25; 0 invalid. */
function symbolOf(code: i32): i32 {
  if (code >= 0x30 && code <= 0x39) return 1 + code - 0x30;
  if (code == 0x5f) return 25;
  if (code >= 0x41 && code <= 0x5a) code += 0x20;
  if (code < 0x61 || code > 0x7a) return 0;
  return SYMBOL_CHARS.indexOf(String.fromCharCode(code));
}

/** Sum of the frequencies of symbols below `symbol` after `context`. */
function cumulative(context: i32, symbol: i32): i32 {
  let sum = 0;
  for (let c = 0; c < symbol; c++) sum += <i32>unchecked(FREQUENCIES[context * SYMBOLS + c]);
  return sum;
}

class CodeWriter {
  code: u64 = 0;
  bits: i32 = 0;

  /** Appends one bit (MSB-first within little-endian bytes); false when it would be the 65th, or a 1 in bit 56. */
  put(bit: i32): bool {
    if (this.bits == MAX_BITS) return false;
    if (bit == 1) {
      if (this.bits == MAX_BITS - 1) return false;
      this.code |= (<u64>1) << <u64>(this.bits ^ 7);
    }
    this.bits++;
    return true;
  }

  /** `bit`, then `followers` copies of its complement. */
  putWithFollowers(bit: i32, followers: i32): bool {
    if (!this.put(bit)) return false;
    for (let i = 0; i < followers; i++) if (!this.put(bit ^ 1)) return false;
    return true;
  }
}

/** The arithmetic code of a name of valid chars, or 0 when it does not fit. */
function arithmeticCode(name: string): u64 {
  const out = new CodeWriter();
  let low = 0;
  let high = MAX_CODE;
  let pending = 0;
  let context = 0;
  for (let i = 0; i <= name.length; i++) {
    if (out.bits == MAX_BITS) return 0; // the final bits would not fit
    const symbol = i < name.length ? symbolOf(name.charCodeAt(i)) : 0;
    const range = <i64>(high - low + 1);
    high = low + <i32>((range * <i64>cumulative(context, symbol + 1)) / TOTAL) - 1;
    low = low + <i32>((range * <i64>cumulative(context, symbol)) / TOTAL);
    context = symbol;
    while (out.bits < MAX_BITS) {
      if (high < HALF) {
        if (!out.putWithFollowers(0, pending)) return 0;
        pending = 0;
      } else if (low >= HALF) {
        if (!out.putWithFollowers(1, pending)) return 0;
        pending = 0;
      } else if (low >= QUARTER && high < THREE_QUARTERS) {
        pending++;
        low -= QUARTER;
        high -= QUARTER;
      } else {
        break;
      }
      high = ((high << 1) | 1) & MAX_CODE;
      low = (low << 1) & MAX_CODE;
    }
  }
  return out.putWithFollowers(low < QUARTER ? 0 : 1, pending + 1) ? out.code : 0;
}

const P: u64 = 0x6eed0e9da4d94a4f;

function diffuse(x: u64): u64 {
  x *= P;
  x ^= (x >> 32) >> (x >> 60);
  return x * P;
}

/** SeaHash of a string's chars (valid names are ASCII, so chars are bytes). */
function seahash(name: string): u64 {
  const state: StaticArray<u64> = [0x16f11fe89b0d677c, 0xb480a793d8e6c86c, 0x6fe2e5aaf078ebc9, 0x14f994a4c5259381];
  const length = name.length;
  for (let start = 0; start < length; start += 8) {
    let chunk: u64 = 0;
    const end = min(start + 8, length);
    for (let i = start; i < end; i++) chunk |= (<u64>name.charCodeAt(i)) << (<u64>(i - start) * 8);
    const lane = (start >> 3) & 3;
    state[lane] = diffuse(state[lane] ^ chunk);
  }
  return diffuse(state[0] ^ state[1] ^ state[2] ^ state[3] ^ <u64>length);
}

/** The `#` + 16 digits form (least significant nibble first), or 0 when malformed. */
function hashForm(name: string): u64 {
  if (name.length != 17) return 0;
  let value: u64 = 0;
  for (let i = 0; i < 16; i++) {
    const nibble = symbolOf(name.charCodeAt(i + 1)) - 1;
    if (nibble < 0 || nibble > 15) return 0;
    value |= (<u64>nibble) << (<u64>(4 * i));
  }
  return value;
}

/** The method number of `name`; 0 for "" and for invalid names. */
export function methodNumber(name: string): MethodNumber {
  if (name.length == 0) return 0;
  if (name.charCodeAt(0) == 0x23) return hashForm(name);
  for (let i = 0; i < name.length; i++) if (symbolOf(name.charCodeAt(i)) == 0) return 0;
  const code = arithmeticCode(name);
  return code != 0 ? code : seahash(name) | HASH_FLAG;
}

const CODE_BITS: i32 = 17;
/** The decoder reads up to 16 zero bits past the code's end, as psibase's does. */
const MAX_DECODE_BITS: i32 = 80;

/** Bit `index` of a code (MSB-first within little-endian bytes); 0 past its 64 bits. */
function codeBit(code: u64, index: i32): i32 {
  return index < MAX_BITS ? <i32>((code >> <u64>(index ^ 7)) & 1) : 0;
}

function arithmeticDecode(code: u64): string {
  let value: i32 = 0;
  let bitsRead = 0;
  while (bitsRead < CODE_BITS) value = value * 2 + codeBit(code, bitsRead++);
  let low = 0;
  let high = MAX_CODE;
  let context = 0;
  let name = "";
  while (bitsRead < MAX_DECODE_BITS) {
    const range = <i64>(high - low + 1);
    const scaled = <i32>(((<i64>(value - low + 1)) * TOTAL - 1) / range);
    let symbol = 0;
    while (symbol < SYMBOLS && scaled >= cumulative(context, symbol + 1)) symbol++;
    if (symbol == 0 || symbol == SYMBOLS) break;
    name += SYMBOL_CHARS.charAt(symbol);
    high = low + <i32>((range * <i64>cumulative(context, symbol + 1)) / TOTAL) - 1;
    low = low + <i32>((range * <i64>cumulative(context, symbol)) / TOTAL);
    context = symbol;
    while (bitsRead < MAX_DECODE_BITS) {
      if (high < HALF) {
        // the top bit is 0: nothing to take off
      } else if (low >= HALF) {
        value -= HALF;
        low -= HALF;
        high -= HALF;
      } else if (low >= QUARTER && high < THREE_QUARTERS) {
        value -= QUARTER;
        low -= QUARTER;
        high -= QUARTER;
      } else {
        break;
      }
      low *= 2;
      high = high * 2 + 1;
      value = value * 2 + codeBit(code, bitsRead++);
    }
  }
  return name;
}

/** The name of a method number: "" for 0, `#` + 16 hash digits for hashed names. */
export function methodName(n: MethodNumber): string {
  if (n == 0) return "";
  if ((n & HASH_FLAG) == 0) return arithmeticDecode(n);
  let name = "#";
  for (let i = 0; i < 16; i++) name += SYMBOL_CHARS.charAt(1 + <i32>((n >> <u64>(4 * i)) & 15));
  return name;
}
