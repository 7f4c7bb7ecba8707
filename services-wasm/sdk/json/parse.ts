// A strict JSON parser (RFC 8259): whitespace, literals, numbers, strings with escapes (surrogate
// pairs included), arrays and objects. Malformed input aborts with the position, or, while JSON
// problems are collected (problems.ts), records it and stops reading.

import { JsonKind, JsonValue } from "./value";
import { jsonProblem } from "./problems";
import { hexDigitValue } from "../hex";

const MAX_DEPTH = 64;

class Parser {
  pos: i32 = 0;
  /** A problem was recorded: the rest of the text is skipped (every loop stops at its end). */
  failed: bool = false;

  constructor(readonly text: string) {}

  fail(what: string): void {
    jsonProblem("invalid JSON at " + this.pos.toString() + ": " + what);
    this.failed = true;
    this.pos = this.text.length;
  }

  peek(): i32 {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  skipSpace(): void {
    for (let c = this.peek(); c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d; c = this.peek()) this.pos++;
  }

  expect(c: i32): void {
    if (this.peek() != c) this.fail("expected '" + String.fromCharCode(c) + "'");
    this.pos++;
  }

  literal(word: string): void {
    if (this.text.substr(this.pos, word.length) != word) this.fail("expected " + word);
    this.pos += word.length;
  }

  value(depth: i32): JsonValue {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    this.skipSpace();
    const v = new JsonValue();
    const c = this.peek();
    if (c == 0x7b) this.object(v, depth);
    else if (c == 0x5b) this.array(v, depth);
    else if (c == 0x22) {
      v.kind = JsonKind.String;
      v.text = this.string();
    } else if (c == 0x74) {
      this.literal("true");
      v.kind = JsonKind.Bool;
      v.boolean = true;
    } else if (c == 0x66) {
      this.literal("false");
      v.kind = JsonKind.Bool;
    } else if (c == 0x6e) {
      this.literal("null");
    } else {
      v.kind = JsonKind.Number;
      v.text = this.number();
    }
    this.skipSpace();
    return v;
  }

  object(v: JsonValue, depth: i32): void {
    v.kind = JsonKind.Object;
    this.pos++;
    this.skipSpace();
    if (this.peek() == 0x7d) {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.failed) return;
      this.skipSpace();
      if (this.peek() != 0x22) this.fail("expected a member name");
      v.keys.push(this.string());
      this.skipSpace();
      this.expect(0x3a);
      v.values.push(this.value(depth + 1));
      if (this.peek() == 0x7d) break;
      this.expect(0x2c);
    }
    this.pos++;
  }

  array(v: JsonValue, depth: i32): void {
    v.kind = JsonKind.Array;
    this.pos++;
    this.skipSpace();
    if (this.peek() == 0x5d) {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.failed) return;
      v.items.push(this.value(depth + 1));
      if (this.peek() == 0x5d) break;
      this.expect(0x2c);
    }
    this.pos++;
  }

  digits(): i32 {
    const start = this.pos;
    for (let c = this.peek(); c >= 0x30 && c <= 0x39; c = this.peek()) this.pos++;
    return this.pos - start;
  }

  number(): string {
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    const first = this.peek();
    const count = this.digits();
    if (count == 0 || (first == 0x30 && count > 1)) this.fail("bad number");
    if (this.peek() == 0x2e) {
      this.pos++;
      if (this.digits() == 0) this.fail("bad number");
    }
    const e = this.peek();
    if (e == 0x65 || e == 0x45) {
      this.pos++;
      const sign = this.peek();
      if (sign == 0x2b || sign == 0x2d) this.pos++;
      if (this.digits() == 0) this.fail("bad number");
    }
    return this.text.substring(start, this.pos);
  }

  hex4(): i32 {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      const digit = hexDigitValue(this.peek());
      if (digit < 0) this.fail("bad \\u escape");
      value = (value << 4) | digit;
      this.pos++;
    }
    return value;
  }

  string(): string {
    this.pos++;
    const units = new Array<i32>();
    for (;;) {
      const c = this.peek();
      if (c < 0) {
        this.fail("unterminated string");
        break;
      }
      this.pos++;
      if (c == 0x22) break;
      if (c < 0x20) this.fail("control character in a string");
      if (c != 0x5c) {
        units.push(c);
        continue;
      }
      const e = this.peek();
      this.pos++;
      if (e == 0x22 || e == 0x5c || e == 0x2f) units.push(e);
      else if (e == 0x62) units.push(0x08);
      else if (e == 0x66) units.push(0x0c);
      else if (e == 0x6e) units.push(0x0a);
      else if (e == 0x72) units.push(0x0d);
      else if (e == 0x74) units.push(0x09);
      else if (e == 0x75) units.push(this.hex4()); // UTF-16 units: surrogate pairs join in the string
      else this.fail("bad escape");
    }
    return String.fromCharCodes(units);
  }
}

/** Parses a whole JSON document. */
export function parseJson(text: string): JsonValue {
  const parser = new Parser(text);
  const value = parser.value(0);
  if (parser.pos != text.length) parser.fail("unexpected text after the value");
  return value;
}
