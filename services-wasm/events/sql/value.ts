// Values of event query conditions, after SQLite's storage classes: NULL, INTEGER (exact, from
// -2^64 to 2^64 exclusive, so every i64 and u64 event field compares exactly), REAL and TEXT.
// Booleans are the integers 0 and 1. A TEXT that spells a number compares with a number as that
// number (parameters are text: `amount > ?` with '100' compares numerically); any other TEXT
// sorts after every number. TEXT compares by code point (the order of UTF-8 bytes).

import { floatText } from "../../sdk/graphql/float";
import { isDigit } from "./lexer";

export enum SqlKind {
  Null,
  Integer,
  Real,
  Text,
}

export class SqlValue {
  kind: SqlKind = SqlKind.Null;
  /** Integer: sign and magnitude. */
  negative: bool = false;
  magnitude: u64 = 0;
  real: f64 = 0;
  text: string = "";
  /** Text: whether `spelled` is worked out yet (a parameter is read once per event tested). */
  private numberRead: bool = false;
  private spelled: SqlValue | null = null;

  static null(): SqlValue {
    return NULL;
  }

  static integer(negative: bool, magnitude: u64): SqlValue {
    const v = new SqlValue();
    v.kind = SqlKind.Integer;
    v.negative = negative && magnitude != 0;
    v.magnitude = magnitude;
    return v;
  }

  static bool(value: bool): SqlValue {
    return value ? TRUE : FALSE;
  }

  static real(value: f64): SqlValue {
    const v = new SqlValue();
    v.kind = SqlKind.Real;
    v.real = value;
    return v;
  }

  static text(value: string): SqlValue {
    const v = new SqlValue();
    v.kind = SqlKind.Text;
    v.text = value;
    return v;
  }

  get isNull(): bool {
    return this.kind == SqlKind.Null;
  }

  get isNumber(): bool {
    return this.kind == SqlKind.Integer || this.kind == SqlKind.Real;
  }

  toF64(): f64 {
    if (this.kind == SqlKind.Real) return this.real;
    const m = <f64>this.magnitude;
    return this.negative ? -m : m;
  }

  /** The value as text (LIKE): numbers in decimal. */
  toText(): string {
    if (this.kind == SqlKind.Text) return this.text;
    if (this.kind == SqlKind.Integer) return (this.negative ? "-" : "") + this.magnitude.toString();
    return floatText(this.real);
  }

  /** Text: the number it spells (see numberOf), or null; read once per value. */
  numberSpelled(): SqlValue | null {
    if (!this.numberRead) {
      this.spelled = numberOf(this.text);
      this.numberRead = true;
    }
    return this.spelled;
  }

  /** Whether a condition holding this value keeps an event: a nonzero number (or numeric text). */
  isTrue(): bool {
    const n = this.kind == SqlKind.Text ? this.numberSpelled() : this;
    if (n === null || n.isNull) return false;
    return n.kind == SqlKind.Integer ? n.magnitude != 0 : n.real != 0;
  }
}

// A value never changes once made (a text only remembers the number it spells), so every NULL
// and boolean can be one of these (a condition makes one per test of every event it reads, and
// services never free memory).
@lazy const NULL = new SqlValue();
@lazy const TRUE = SqlValue.integer(false, 1);
@lazy const FALSE = SqlValue.integer(false, 0);

/** Whether the last decimalMagnitude did not fit 64 bits (every u64 is a valid magnitude, so none can mark it). */
let magnitudeOverflowed = false;

/** The value of the decimal digits of `text` from `start` on; sets magnitudeOverflowed when it passes 64 bits. */
function decimalMagnitude(text: string, start: i32): u64 {
  magnitudeOverflowed = false;
  let value: u64 = 0;
  for (let i = start; i < text.length; i++) {
    const digit = <u64>(text.charCodeAt(i) - 0x30);
    if (value > (u64.MAX_VALUE - digit) / 10) {
      magnitudeOverflowed = true;
      return 0;
    }
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The number a text spells (`[+-]digits[.digits][e[+-]digits]`, no spaces), or null: an
 * INTEGER when it has neither fraction nor exponent and fits, else a REAL.
 */
export function numberOf(text: string): SqlValue | null {
  let i = 0;
  const n = text.length;
  if (i < n && (text.charCodeAt(i) == 0x2b || text.charCodeAt(i) == 0x2d)) i++;
  const digitsStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  let digits = i - digitsStart;
  let integral = true;
  if (i < n && text.charCodeAt(i) == 0x2e) {
    integral = false;
    i++;
    const fractionStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    digits += i - fractionStart;
  }
  if (digits == 0) return null;
  if (i < n && (text.charCodeAt(i) | 0x20) == 0x65) {
    integral = false;
    i++;
    if (i < n && (text.charCodeAt(i) == 0x2b || text.charCodeAt(i) == 0x2d)) i++;
    const exponentStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i == exponentStart) return null;
  }
  if (i != n) return null;
  if (integral) {
    const magnitude = decimalMagnitude(text, digitsStart);
    if (!magnitudeOverflowed) return SqlValue.integer(text.charCodeAt(0) == 0x2d, magnitude);
  }
  return SqlValue.real(parseFloat(text));
}

function compareIntegers(a: SqlValue, b: SqlValue): i32 {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  const c = a.magnitude < b.magnitude ? -1 : a.magnitude > b.magnitude ? 1 : 0;
  return a.negative ? -c : c;
}

/** Compares by code point: UTF-16 code units, except that surrogates sort after U+E000..U+FFFF. */
function compareText(a: string, b: string): i32 {
  const n = min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x == y) continue;
    if (x >= 0xd800 && x <= 0xdfff) x += 0x2000;
    else if (x >= 0xe000) x -= 0x800;
    if (y >= 0xd800 && y <= 0xdfff) y += 0x2000;
    else if (y >= 0xe000) y -= 0x800;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Orders two non-NULL values (numbers before non-numeric text). */
export function compareValues(a: SqlValue, b: SqlValue): i32 {
  if (a.kind == SqlKind.Text && b.isNumber) {
    const n = a.numberSpelled();
    return n !== null ? compareValues(n, b) : 1;
  }
  if (b.kind == SqlKind.Text && a.isNumber) {
    const n = b.numberSpelled();
    return n !== null ? compareValues(a, n) : -1;
  }
  if (a.kind == SqlKind.Text) return compareText(a.text, b.text);
  if (a.kind == SqlKind.Integer && b.kind == SqlKind.Integer) return compareIntegers(a, b);
  const x = a.toF64();
  const y = b.toF64();
  return x < y ? -1 : x > y ? 1 : 0;
}
