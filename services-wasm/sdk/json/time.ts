// Time points in JSON (docs/formats.md §3): `YYYY-MM-DDThh:mm:ss[.fraction](Z|±HH[:MM])`, as seconds or
// microseconds since 1970; a fraction finer than the unit is truncated toward the past. Written
// as `YYYY-MM-DDThh:mm:ssZ` (seconds) and `YYYY-MM-DDThh:mm:ss.ffffffZ` (microseconds).

import { jsonProblem } from "./problems";

class Cursor {
  pos: i32 = 0;
  constructor(readonly text: string) {}

  /** `count` decimal digits, or -1. */
  digits(count: i32): i64 {
    let value: i64 = 0;
    for (let i = 0; i < count; i++) {
      const c = this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
      if (c < 0x30 || c > 0x39) return -1;
      value = value * 10 + (c - 0x30);
      this.pos++;
    }
    return value;
  }

  /** Skips `c` if it is next. */
  skip(c: i32): bool {
    if (this.pos < this.text.length && this.text.charCodeAt(this.pos) == c) {
      this.pos++;
      return true;
    }
    return false;
  }
}

function isLeapYear(y: i64): bool {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

function daysInMonth(y: i64, m: i64): i64 {
  if (m == 2) return isLeapYear(y) ? 29 : 28;
  return m == 4 || m == 6 || m == 9 || m == 11 ? 30 : 31;
}

/** Days from 1970-01-01 to y-m-d (proleptic Gregorian; y >= 0). */
function daysFromCivil(y: i64, m: i64, d: i64): i64 {
  if (m <= 2) y -= 1;
  const era = y / 400;
  const yearOfEra = y - era * 400;
  const dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * Microseconds since 1970 of a time text; a JSON problem naming `what` when it is malformed or
 * not a calendar time (then 0).
 */
function parseMicroseconds(text: string, what: string): i64 {
  const c = new Cursor(text);
  const y = c.digits(4);
  const okDate = y >= 0 && c.skip(0x2d);
  const m = c.digits(2);
  const okMonth = okDate && m >= 1 && m <= 12 && c.skip(0x2d);
  const d = c.digits(2);
  const okDay = okMonth && d >= 1 && d <= daysInMonth(y, m) && c.skip(0x54);
  const h = c.digits(2);
  const okHour = okDay && h >= 0 && h <= 23 && c.skip(0x3a);
  const mi = c.digits(2);
  const okMinute = okHour && mi >= 0 && mi <= 59 && c.skip(0x3a);
  const s = c.digits(2);
  let ok = okMinute && s >= 0 && s <= 59;
  let micros: i64 = 0;
  if (ok && c.skip(0x2e)) {
    let count = 0;
    for (let digit = c.digits(1); digit >= 0; digit = c.digits(1)) {
      if (count < 6) micros = micros * 10 + digit;
      count++;
    }
    ok = count > 0;
    for (; count < 6; count++) micros *= 10;
  }
  let offset: i64 = 0;
  if (ok && !c.skip(0x5a)) {
    const sign: i64 = c.skip(0x2b) ? 1 : c.skip(0x2d) ? -1 : 0;
    const oh = c.digits(2);
    c.skip(0x3a);
    const om = c.pos < text.length ? c.digits(2) : 0;
    ok = sign != 0 && oh >= 0 && om >= 0;
    offset = sign * (oh * 3600 + om * 60);
  }
  if (!ok || c.pos != text.length) {
    jsonProblem(what + ": '" + text + "' is not a time of the form YYYY-MM-DDThh:mm:ss[.ffffff]Z");
    return 0;
  }
  const seconds = daysFromCivil(y, m, d) * 86400 + h * 3600 + mi * 60 + s - offset;
  return seconds * 1000000 + micros;
}

export function parseTimePointSec(text: string, what: string): i64 {
  const micros = parseMicroseconds(text, what);
  // Floor division: toward the past, also before 1970.
  return micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
}

export function parseTimePointUSec(text: string, what: string): i64 {
  return parseMicroseconds(text, what);
}

/** Floor division (toward the past, also before 1970). */
function floorDiv(a: i64, b: i64): i64 {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

function padded(value: i64, width: i32): string {
  return value.toString().padStart(width, "0");
}

/** `YYYY-MM-DDThh:mm:ss` of seconds since 1970 (the inverse of daysFromCivil). */
function civilText(seconds: i64): string {
  const days = floorDiv(seconds, 86400);
  const second = seconds - days * 86400;
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
  const dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  const mp = (5 * dayOfYear + 2) / 153;
  const d = dayOfYear - (153 * mp + 2) / 5 + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0);
  return padded(y, 4) + "-" + padded(m, 2) + "-" + padded(d, 2) + "T" + padded(second / 3600, 2) + ":" + padded((second / 60) % 60, 2) + ":" + padded(second % 60, 2);
}

export function formatTimePointSec(seconds: i64): string {
  return civilText(seconds) + "Z";
}

export function formatTimePointUSec(micros: i64): string {
  const seconds = floorDiv(micros, 1000000);
  return civilText(seconds) + "." + padded(micros - seconds * 1000000, 6) + "Z";
}
