// JSON to AssemblyScript values in the mapping of docs/formats.md §3, for the code the transform
// generates (`__fpFromJson` of records, `__packAction` of services). Every decoder takes the JSON
// value (null when a member is missing) and a label for error messages. A missing member is its
// type's default, as psibase's JSON reader leaves it (docs/formats.md §3.1): 0, false, "", empty
// bytes and lists, an absent option, a record of defaults, a variant's first alternative. Bad
// input aborts, or, while JSON problems are collected (problems.ts), is recorded and decodes to a
// harmless value.

import { JsonKind, JsonValue } from "./value";
import { parseTimePointSec, parseTimePointUSec } from "./time";
import { jsonProblem } from "./problems";
import { account, isValidAccountName } from "../names/account";
import { methodNumber } from "../names/method";
import { Checksum256 } from "../fracpack/checksum";
import { Option } from "../fracpack/option";
import { hexToBytes } from "../hex";

/** Decodes one JSON value (null: missing) into a T; `what` names it in errors. */
export type Decoder<T> = (json: JsonValue | null, what: string) => T;

function fail(what: string, expected: string): void {
  jsonProblem(what + ": expected " + expected);
}

function kindOf(v: JsonValue, kind: JsonKind, what: string, expected: string): JsonValue {
  if (v.kind != kind) fail(what, expected);
  return v;
}

/** An integer: a JSON number or a decimal string, in the range of T. */
export function asInteger<T>(json: JsonValue | null, what: string): T {
  if (json === null) return <T>0;
  const v = json;
  if (v.kind != JsonKind.Number && v.kind != JsonKind.String) fail(what, "an integer");
  const text = v.text;
  const negative = text.length > 0 && text.charCodeAt(0) == 0x2d;
  const start = negative ? 1 : 0;
  if (text.length == start) fail(what, "an integer");
  let magnitude: u64 = 0;
  for (let i = start; i < text.length; i++) {
    const digit = <u64>(text.charCodeAt(i) - 0x30);
    if (digit > 9 || magnitude > (u64.MAX_VALUE - digit) / 10) fail(what, "an integer in range");
    magnitude = magnitude * 10 + digit;
  }
  const bits = <u64>sizeof<T>() * 8;
  if (isSigned<T>()) {
    const limit: u64 = (<u64>1 << (bits - 1)) - (negative ? 0 : 1);
    if (magnitude > limit) fail(what, "an integer in range");
    return <T>(negative ? -<i64>magnitude : <i64>magnitude);
  }
  if ((negative && magnitude != 0) || (bits < 64 && magnitude >= <u64>1 << bits)) fail(what, "an integer in range");
  return <T>magnitude;
}

/** A float: a JSON number, or "Infinity", "-Infinity", "NaN". */
export function asFloat<T>(json: JsonValue | null, what: string): T {
  if (json === null) return <T>0;
  const v = json;
  if (v.kind == JsonKind.String) {
    if (v.text == "Infinity") return <T>Infinity;
    if (v.text == "-Infinity") return <T>-Infinity;
    if (v.text == "NaN") return <T>NaN;
  }
  if (v.kind != JsonKind.Number) fail(what, "a number");
  return <T>parseFloat(v.text);
}

export function asBool(json: JsonValue | null, what: string): bool {
  return json !== null && kindOf(json, JsonKind.Bool, what, "true or false").boolean;
}

export function asString(json: JsonValue | null, what: string): string {
  return json === null ? "" : kindOf(json, JsonKind.String, what, "a string").text;
}

/** Bytes from hex (either case). */
export function asBytes(json: JsonValue | null, what: string): Uint8Array {
  if (json === null) return new Uint8Array(0);
  const bytes = hexToBytes(asString(json, what));
  if (bytes !== null) return bytes;
  fail(what, "hex");
  return new Uint8Array(0);
}

export function asChecksum256(json: JsonValue | null, what: string): Checksum256 {
  if (json === null) return new Checksum256();
  const b = asBytes(json, what);
  if (b.length == 32) return new Checksum256(b);
  fail(what, "32 bytes of hex");
  return new Checksum256();
}

/** An account name. */
export function asAccountNumber(json: JsonValue | null, what: string): u64 {
  if (json === null) return 0;
  const name = asString(json, what);
  if (isValidAccountName(name)) return account(name);
  jsonProblem(what + ": invalid account name \"" + name + "\"");
  return 0;
}

/** A method number: its name (docs/formats.md §3), or the number itself. */
export function asMethodNumber(json: JsonValue | null, what: string): u64 {
  if (json === null || json.kind != JsonKind.String) return asInteger<u64>(json, what);
  const name = json.text;
  const number = methodNumber(name);
  if (number == 0 && name.length > 0) fail(what, "a method name");
  return number;
}

export function asTimePointSec(json: JsonValue | null, what: string): i64 {
  return json === null ? 0 : parseTimePointSec(asString(json, what), what);
}

export function asTimePointUSec(json: JsonValue | null, what: string): i64 {
  return json === null ? 0 : parseTimePointUSec(asString(json, what), what);
}

export function asList<E>(json: JsonValue | null, what: string, element: Decoder<E>): Array<E> {
  if (json === null) return new Array<E>(0);
  const items = kindOf(json, JsonKind.Array, what, "an array").items;
  const out = new Array<E>(items.length);
  for (let i = 0; i < items.length; i++) unchecked(out[i] = element(items[i], what + "[" + i.toString() + "]"));
  return out;
}

/** `T | null`: null or a missing member is absent. */
export function asNullable<T>(json: JsonValue | null, what: string, inner: Decoder<T>): T | null {
  return json === null || json.kind == JsonKind.Null ? null : inner(json, what);
}

/** Option<T>: null or a missing member is absent. */
export function asOption<T>(json: JsonValue | null, what: string, inner: Decoder<T>): Option<T> {
  return json === null || json.kind == JsonKind.Null ? new Option<T>() : new Option<T>(true, inner(json, what));
}

/** A record: a JSON object decoded by the class's generated __fpFromJson (missing: all defaults). */
export function asRecord<T>(json: JsonValue | null, what: string): T {
  return changetype<T>(0).__fpFromJson(json, what);
}

/**
 * The JSON object of a record (its members are looked up by name; others are skipped); a missing
 * record is an empty object, whose members all take their defaults.
 */
export function asObject(json: JsonValue | null, what: string): JsonValue {
  if (json === null) {
    const empty = new JsonValue();
    empty.kind = JsonKind.Object;
    return empty;
  }
  return kindOf(json, JsonKind.Object, what, "an object");
}

/**
 * The one member of a Variant's object: `{"Alternative": value}`; returns its name. A missing
 * variant holds its first alternative (`first`), with that alternative's default.
 */
export function alternativeName(json: JsonValue | null, what: string, first: string): string {
  if (json === null) return first;
  const v = asObject(json, what);
  if (v.keys.length == 1) return v.keys[0];
  fail(what, "an object with one member naming an alternative");
  return "";
}

export function noAlternative(what: string, name: string): void {
  jsonProblem(what + ": no alternative " + name);
}

/**
 * Records the first member of an action's argument object that names no argument: psibase's
 * pack_action refuses those ("action 'a' does not have argument 'k'"), while records inside skip
 * unknown keys.
 */
export function checkArgumentNames(action: string, json: JsonValue, names: Array<string>): void {
  if (json.kind != JsonKind.Object) return;
  const keys = json.keys;
  for (let i = 0; i < keys.length; i++) {
    if (!names.includes(keys[i])) {
      jsonProblem("action '" + action + "' does not have argument '" + keys[i] + "'");
      return;
    }
  }
}
