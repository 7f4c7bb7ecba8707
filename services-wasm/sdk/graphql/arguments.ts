// Field arguments (docs/serving.md §4.7 rule 4): what a validator checks (known names, required ones
// present, each value of its GraphQL type: Float, String or Boolean) is a validation error, as
// graphql-js refuses such a query; a value of the right GraphQL type that the AssemblyScript
// type cannot hold (1.5 for a u32, "x" for a u64 or an account) is a field error.

import { hexToBytes } from "../hex";
import { Checksum256 } from "../fracpack/checksum";
import { Option } from "../fracpack/option";
import { account, isValidAccountName } from "../names/account";
import { Value, ValueKind } from "./ast";
import { Execution, FieldRequest } from "./execute";

/** Decodes a present, non-null argument value; after a field error the result is a placeholder. */
export type ValueDecoder<T> = (value: Value, name: string, exec: Execution) => T;

export function isNumber(v: Value): bool {
  return v.kind == ValueKind.Int || v.kind == ValueKind.Float;
}

export function isDecimal(text: string, signed: bool): bool {
  const start = signed && text.startsWith("-") ? 1 : 0;
  if (text.length == start || text.length > start + 20) return false;
  for (let i = start; i < text.length; i++) if (text.charCodeAt(i) < 0x30 || text.charCodeAt(i) > 0x39) return false;
  return true;
}

function refuse(exec: Execution, name: string, what: string, v: Value): void {
  exec.fieldError("Argument \"" + name + "\" is not " + what + ": " + v.text);
}

/** An integer: a whole number in T's range, or (64-bit values, rule 4) its exact decimal text. */
export function integerValue<T>(v: Value, name: string, exec: Execution): T {
  if (v.kind == ValueKind.String && isDecimal(v.text, isSigned<T>())) {
    const value: T = isSigned<T>() ? <T>I64.parseInt(v.text) : <T>U64.parseInt(v.text);
    if (value.toString() == v.text) return value;
  } else if (isNumber(v)) {
    const n = parseFloat(v.text);
    const value = <T>n;
    if (Math.floor(n) == n && <f64>value == n) return value;
  }
  refuse(exec, name, "a " + nameof<T>(), v);
  return <T>0;
}

export function floatValue<T>(v: Value, name: string, exec: Execution): T {
  return <T>parseFloat(v.text);
}

export function boolValue(v: Value, name: string, exec: Execution): bool {
  return v.boolean;
}

export function stringValue(v: Value, name: string, exec: Execution): string {
  return v.text;
}

/** An account given by name, as JSON gives accounts. */
export function accountValue(v: Value, name: string, exec: Execution): u64 {
  if (isValidAccountName(v.text)) return account(v.text);
  refuse(exec, name, "an account name", v);
  return 0;
}

export function bytesValue(v: Value, name: string, exec: Execution): Uint8Array {
  const bytes = hexToBytes(v.text);
  if (bytes !== null) return bytes;
  refuse(exec, name, "hex", v);
  return new Uint8Array(0);
}

export function checksumValue(v: Value, name: string, exec: Execution): Checksum256 {
  const bytes = hexToBytes(v.text);
  if (bytes !== null && bytes.length == 32) return new Checksum256(bytes);
  refuse(exec, name, "32 bytes of hex", v);
  return new Checksum256();
}

function isAbsent(v: Value | null): bool {
  return v === null || v.kind == ValueKind.Null;
}

/** A nullable argument of a reference type: null when absent or null. */
export function nullableValue<T>(v: Value | null, name: string, exec: Execution, decode: ValueDecoder<T>): T | null {
  return isAbsent(v) ? null : decode(v!, name, exec);
}

/** A nullable argument of any type, as an Option. */
export function optionValue<T>(v: Value | null, name: string, exec: Execution, decode: ValueDecoder<T>): Option<T> {
  return isAbsent(v) ? new Option<T>() : new Option<T>(true, decode(v!, name, exec));
}

/** Whether a present value fits the GraphQL input type named `type` (Float, String or Boolean). */
function fits(v: Value, type: string): bool {
  if (type == "Float") return isNumber(v);
  if (type == "Boolean") return v.kind == ValueKind.Boolean;
  return v.kind == ValueKind.String;
}

function describe(v: Value): string {
  return v.kind == ValueKind.String ? "\"" + v.text + "\"" : v.kind == ValueKind.Boolean ? (v.boolean ? "true" : "false") : v.text;
}

/**
 * Checks `field`'s arguments against the declared `names` and GraphQL `types` (`Float`,
 * `String!`, ...) of field `coordinate` (`Type.field`) as a validator would; false after a
 * validation error.
 */
export function acceptArguments(field: FieldRequest, exec: Execution, coordinate: string, names: Array<string>, types: Array<string>): bool {
  const given = field.arguments;
  for (let i = 0; i < given.length; i++) {
    const name = given[i].name;
    const declared = names.indexOf(name);
    if (declared < 0) {
      exec.fail("Unknown argument \"" + name + "\" on field \"" + coordinate + "\".");
      return false;
    }
    for (let j = 0; j < i; j++) {
      if (given[j].name != name) continue;
      exec.fail("There can be only one argument named \"" + name + "\".");
      return false;
    }
    const type = types[declared];
    const required = type.endsWith("!");
    const v = given[i].value;
    if (v.kind == ValueKind.Null) {
      if (!required) continue;
      exec.fail("Expected value of type \"" + type + "\", found null.");
      return false;
    }
    const named = required ? type.substring(0, type.length - 1) : type;
    if (!fits(v, named)) {
      exec.fail(named + " cannot represent " + (named == "Float" ? "non numeric" : "a non " + named.toLowerCase()) + " value: " + describe(v));
      return false;
    }
  }
  for (let i = 0; i < names.length; i++) {
    if (!types[i].endsWith("!") || field.argument(names[i]) !== null) continue;
    const fieldName = coordinate.substring(coordinate.indexOf(".") + 1);
    exec.fail("Field \"" + fieldName + "\" argument \"" + names[i] + "\" of type \"" + types[i] + "\" is required, but it was not provided.");
    return false;
  }
  return true;
}
