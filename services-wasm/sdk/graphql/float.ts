// Floats in responses, printed as graphql-js (JavaScript's Number::toString) prints them: the
// shortest digits that read back as the same number, whole numbers without a fraction, exponents
// from 1e21 up and below 1e-6. AssemblyScript's own dtoa (Grisu2) reads back exactly but is not
// always shortest nor closest (0.1 * 3 gives 0.30000000000000007, JavaScript
// 0.30000000000000004), so its digits only guide a search checked by exact arithmetic.

import { BigNatural } from "./big-natural";

/** 2^53: whole numbers below it convert to i64 exactly. */
const EXACT_INTEGER = 9007199254740992.0;

/** Significant digits `digits` (no leading or trailing zeros) and `n`: value = 0.digits × 10^n. */
class Decimal {
  constructor(public digits: string, public n: i32) {}
}

/** The digits of AssemblyScript's text of a positive finite number (`123.5`, `1.5e-7`, `1e+21`). */
function decimalOf(text: string): Decimal {
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.substring(0, e);
  const exponent = e < 0 ? 0 : I32.parseInt(text.substring(e + 1));
  const point = mantissa.indexOf(".");
  const whole = point < 0 ? mantissa : mantissa.substring(0, point);
  let digits = whole + (point < 0 ? "" : mantissa.substring(point + 1));
  let n = whole.length + exponent;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) == 0x30) lead++;
  digits = digits.substring(lead);
  n -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) == 0x30) end--;
  return new Decimal(digits.substring(0, end), n);
}

/** The k-digit integer c with n as a Decimal (c may have gained or lost a digit: 9…9 + 1). */
function decimalFrom(c: u64, k: i32, n: i32): Decimal {
  const text = c.toString();
  return decimalOf(text + "e" + (n - k).toString());
}

/** A positive finite double as f × 2^e, f a 53-bit integer. */
class Binary {
  f: u64;
  e: i32;

  constructor(value: f64) {
    const bits = reinterpret<u64>(value);
    const biased = <i32>(bits >> 52);
    const mantissa = bits & 0xfffffffffffff;
    this.f = biased == 0 ? mantissa : mantissa | 0x10000000000000;
    this.e = (biased == 0 ? 1 : biased) - 1075;
  }
}

/** Compares c × 10^p10 with f × 2^p2 exactly: -1, 0 or 1. */
function compareExact(c: u64, p10: i32, f: u64, p2: i32): i32 {
  const left = new BigNatural(c);
  const right = new BigNatural(f);
  if (p10 >= 0) left.mulPow10(p10);
  else right.mulPow10(-p10);
  if (p2 >= 0) right.mulPow2(p2);
  else left.mulPow2(-p2);
  return left.compare(right);
}

/**
 * Whether the k-digit decimal c × 10^(n-k) reads back as the double `b`: it lies inside b's
 * rounding interval (its ends included when f is even: ties round to even).
 */
function readsBack(b: Binary, c: u64, k: i32, n: i32): bool {
  // Interval ends (2f ± 1) × 2^(e-1); below a power of two the lower neighbour is half as far.
  const lowerIsCloser = b.f == 0x10000000000000 && b.e > -1074;
  const low = lowerIsCloser ? compareExact(c, n - k, 4 * b.f - 1, b.e - 2) : compareExact(c, n - k, 2 * b.f - 1, b.e - 1);
  const high = compareExact(c, n - k, 2 * b.f + 1, b.e - 1);
  const even = (b.f & 1) == 0;
  return (low > 0 || (even && low == 0)) && (high < 0 || (even && high == 0));
}

/** Of c and c + 1 (k digits), the one closer to `b`; the even one on a tie. */
function nearer(b: Binary, c: u64, k: i32, n: i32): u64 {
  const side = compareExact(2 * c + 1, n - k, b.f, b.e + 1);
  return side > 0 || (side == 0 && (c & 1) == 0) ? c : c + 1;
}

/**
 * The shortest decimal that reads back as `value`, the closest of its length (Number::toString's
 * choice), found around Grisu's digits `d`.
 */
function shortest(value: f64, d: Decimal): Decimal {
  const b = new Binary(value);
  for (let k = 1; k <= d.digits.length; k++) {
    // Grisu's digits are off by a few units in the last place at most: walk to the true truncation.
    let c = U64.parseInt(d.digits.substring(0, k));
    while (c > 0 && compareExact(c, d.n - k, b.f, b.e) > 0) c--;
    while (compareExact(c + 1, d.n - k, b.f, b.e) <= 0) c++;
    const best = nearer(b, c, k, d.n);
    if (readsBack(b, best, k, d.n)) return decimalFrom(best, k, d.n);
    const other = best == c ? c + 1 : c;
    if (readsBack(b, other, k, d.n)) return decimalFrom(other, k, d.n);
  }
  return d;
}

function zeros(count: i32): string {
  return "0".repeat(count);
}

/** Number::toString's layout of 0.digits × 10^n. */
function layout(d: Decimal): string {
  const k = d.digits.length;
  const n = d.n;
  if (k <= n && n <= 21) return d.digits + zeros(n - k);
  if (0 < n && n <= 21) return d.digits.substring(0, n) + "." + d.digits.substring(n);
  if (-6 < n && n <= 0) return "0." + zeros(-n) + d.digits;
  const e = n - 1;
  const exponent = "e" + (e < 0 ? "-" : "+") + abs(e).toString();
  return k == 1 ? d.digits + exponent : d.digits.charAt(0) + "." + d.digits.substring(1) + exponent;
}

/** Whether `value` is a whole number that an i64 holds exactly (written as its integer). */
export function isExactInteger(value: f64): bool {
  return Math.abs(value) < EXACT_INTEGER && Math.floor(value) == value;
}

/** A finite f64 as JavaScript's `String(value)` writes it. */
export function floatText(value: f64): string {
  if (isExactInteger(value)) return (<i64>value).toString();
  const magnitude = Math.abs(value);
  const text = layout(shortest(magnitude, decimalOf(magnitude.toString())));
  return value < 0 ? "-" + text : text;
}
