// Writing field values of AssemblyScript types with the GraphQL mapping of docs/serving.md §4.7 rule 4:
// integers up to 32 bits and floats as Float, 64-bit integers as decimal Strings, accounts by
// name, method numbers by name, time points and bytes as JSON writes them, lists, nullable values,
// and records as objects.
// The transform's generated resolvers call these; the type dispatch happens at compile time.

import { bytesToHex } from "../hex";
import { Option } from "../fracpack/option";
import { accountName, isValidAccountNumber } from "../names/account";
import { methodName } from "../names/method";
import { formatTimePointSec, formatTimePointUSec } from "../json/time";
import { Execution, FieldRequest, GqlObject } from "./execute";

/** Writes one value of type T. */
export type ValueWriter<T> = (exec: Execution, value: T) => void;

/** Integers up to 32 bits and floats: Float. */
export function writeNumber<T>(exec: Execution, value: T): void {
  exec.writeFloat(<f64>value);
}

/** 64-bit integers: String (decimal). */
export function writeDecimal<T>(exec: Execution, value: T): void {
  exec.writeDecimal<T>(value);
}

/** An account: its name ("" for 0); a number that is no account's is a field error. */
export function writeAccount(exec: Execution, value: u64): void {
  if (value == 0 || isValidAccountNumber(value)) exec.writeString(accountName(value));
  else exec.fieldError("Not an account number: " + value.toString());
}

export function writeMethod(exec: Execution, value: u64): void {
  exec.writeString(methodName(value));
}

export function writeTimePointSec(exec: Execution, value: i64): void {
  exec.writeString(formatTimePointSec(value));
}

export function writeTimePointUSec(exec: Execution, value: i64): void {
  exec.writeString(formatTimePointUSec(value));
}

export function writeHex(exec: Execution, bytes: Uint8Array): void {
  exec.writeString(bytesToHex(bytes));
}

export function writeList<T>(exec: Execution, list: Array<T>, item: ValueWriter<T>, nonNullItems: bool): void {
  exec.beginList(nonNullItems);
  for (let i = 0; i < list.length; i++) {
    if (i) exec.nextItem();
    item(exec, list[i]);
  }
  exec.endList();
}

/** A nullable value of a reference type. */
export function writeNullable<T>(exec: Execution, value: T | null, inner: ValueWriter<T>): void {
  if (value === null) exec.writeNull();
  else inner(exec, value!);
}

/** A String, or null. */
export function writeOptionalString(exec: Execution, text: string | null): void {
  if (text === null) exec.writeNull();
  else exec.writeString(text);
}

export function writeOption<T>(exec: Execution, value: Option<T>, inner: ValueWriter<T>): void {
  if (value.hasValue) inner(exec, value.value);
  else exec.writeNull();
}

/**
 * A record (or query root) as a GraphQL object: the transform gives its class
 * `__gqlTypeName()`, `__gqlResolve(field, exec)` and `__gqlNonNull(field)`.
 */
export class RecordObject<T> extends GqlObject {
  constructor(readonly value: T) {
    super();
  }

  typeName(): string {
    return this.value.__gqlTypeName();
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    return this.value.__gqlResolve(field, exec);
  }

  nonNull(field: string): bool {
    return this.value.__gqlNonNull(field);
  }
}

export function writeRecord<T>(exec: Execution, value: T): void {
  exec.writeObject(new RecordObject<T>(value));
}
