// Executing a GraphQL query inside a service (docs/serving.md §4.7, GraphQL spec §6): the operation is
// chosen, variables bound, fields collected (fragments, inline fragments, @skip/@include,
// aliases merged by response key) and each object asked for its fields. Objects are GqlObjects:
// a service's query root and its row types. Errors a validator would report (unknown fields,
// operations, fragments or variables, bad arguments) leave a response without data, as
// graphql-js answers an invalid query. A field error (a resolver refusing its arguments or its
// value) nulls the field, or its nearest nullable ancestor when the field is non-null, and is
// reported with its location and path, as graphql-js executes (spec §6.4.4).

import { JsonKind, JsonValue } from "../json/value";
import { JsonWriter } from "../json/writer";
import { encodeUtf8 } from "../utf8";
import { Argument, Directive, Document, Fragment, Operation, Selection, SelectionKind, Value, ValueKind } from "./ast";
import { parse } from "./parser";
import { floatText, isExactInteger } from "./float";
import { FieldError, fieldErrorJson } from "./field-error";

/** An object type's value: it writes the fields it has and declines the rest. */
export abstract class GqlObject {
  abstract typeName(): string;
  /** Writes the value of `field` with `exec`'s writers; false when the type has no such field. */
  abstract resolve(field: FieldRequest, exec: Execution): bool;

  /** Whether the schema declares `field` non-null: its null (after an error) nulls this object. */
  nonNull(field: string): bool {
    return false;
  }
}

/** One field to resolve: its name, its arguments (variables bound) and its sub-selections. */
export class FieldRequest {
  /** The fields its sub-selections collect on the type last asked (a list's objects share one type). */
  collected: CollectedSet | null = null;

  constructor(
    public name: string,
    public arguments: Array<Argument>,
    public selections: Array<Selection>,
  ) {}

  /** The argument `name`, or null when it is absent. */
  argument(name: string): Value | null {
    for (let i = 0; i < this.arguments.length; i++) if (this.arguments[i].name == name) return this.arguments[i].value;
    return null;
  }
}

/** A JSON variable value as a GraphQL value. */
function fromJson(json: JsonValue): Value {
  const v = new Value();
  if (json.kind == JsonKind.Bool) {
    v.kind = ValueKind.Boolean;
    v.boolean = json.boolean;
  } else if (json.kind == JsonKind.Number) {
    const t = json.text;
    v.kind = t.includes(".") || t.includes("e") || t.includes("E") ? ValueKind.Float : ValueKind.Int;
    v.text = t;
  } else if (json.kind == JsonKind.String) {
    v.kind = ValueKind.String;
    v.text = json.text;
  } else if (json.kind == JsonKind.Array) {
    v.kind = ValueKind.List;
    for (let i = 0; i < json.items.length; i++) v.items.push(fromJson(json.items[i]));
  } else if (json.kind == JsonKind.Object) {
    v.kind = ValueKind.Object;
    for (let i = 0; i < json.keys.length; i++) v.fields.push(new Argument(json.keys[i], fromJson(json.values[i])));
  }
  return v;
}

/** A field of a selection set collected on one object type: its selections merged by response key. */
class CollectedField {
  /** What is written before its value: its key (UTF-8), after a comma unless it is the set's first field. */
  prefix: Uint8Array = new Uint8Array(0);
  /** Its request, made when first resolved (variables do not change while a query runs). */
  request: FieldRequest | null = null;
  /** Whether it asks for `__typename`, which every object answers by its type's name. */
  typename: bool;

  constructor(public key: string, public first: Selection, public selections: Array<Selection>) {
    this.typename = first.name == "__typename";
  }
}

/** The fields a selection set collects on an object type, kept for the other objects it selects on (a list's rows). */
class CollectedSet {
  constructor(public type: string, public fields: Array<CollectedField>) {}
}

/** A list being written: where its current item begins in the output. */
class ListFrame {
  index: i32 = 0;
  /** `live`: begun outside a nulled value (inside one, nothing it holds is kept). */
  constructor(public itemMark: i32, public nonNullItems: bool, public live: bool) {}
}

export class Execution {
  /** The response, written as UTF-8 as it goes (cut back when an error nulls a value). */
  private out: JsonWriter = new JsonWriter();
  private errors: Array<FieldError> = [];
  /** A validation-style error was found: the response has no data. */
  private invalid: bool = false;
  /** A field error nulls the value being written, up to the nearest nullable field or item. */
  private nulled: bool = false;
  private source: string = "";
  private fragments: Map<string, Fragment> = new Map<string, Fragment>();
  private variables: Map<string, Value> = new Map<string, Value>();
  /** The operation's variables, given or not. */
  private declared: Set<string> = new Set<string>();
  /** The field being written (leaf writers check it has no sub-selection) and where it is in the query. */
  private current: FieldRequest | null = null;
  private currentStart: i32 = 0;
  /**
   * The response path of the value being written: response keys, and "" for each list (its index
   * is in its frame), in path[0, depth). Entered and left for every field written: the array
   * keeps its length, so a step is a store.
   */
  private path: Array<string> = [];
  private depth: i32 = 0;
  private lists: Array<ListFrame> = [];
  /** The selection sets collected so far, by their selections. */
  private collected: Map<Array<Selection>, CollectedSet> = new Map<Array<Selection>, CollectedSet>();

  /** Records a validation-style error: the response will have errors and no data. */
  fail(message: string): void {
    this.errors.push(new FieldError(message, -1, null));
    this.invalid = true;
  }

  /** Whether nothing more should be written for the field being resolved: the query is invalid or the field has failed. */
  get failed(): bool {
    return this.invalid || this.nulled;
  }

  /**
   * Records a field error at the field being written (its location and path) and nulls its
   * value; writers ignore what the resolver writes after it.
   */
  fieldError(message: string): void {
    if (this.nulled) return;
    this.errors.push(new FieldError(message, this.currentStart, this.pathJson()));
    this.nulled = true;
  }

  /** The response path as JSON: response keys quoted, list indexes bare. */
  private pathJson(): string {
    const items = new Array<string>(this.depth);
    let list = 0;
    for (let i = 0; i < this.depth; i++) {
      const key = this.path[i];
      items[i] = key.length == 0 ? this.lists[list++].index.toString() : "\"" + key + "\"";
    }
    return "[" + items.join(",") + "]";
  }

  private emit(text: string): void {
    if (!this.nulled) this.out.text(text);
  }

  /** One ASCII character of JSON's structure. */
  private emitByte(c: u8): void {
    if (!this.nulled) this.out.byte(c);
  }

  /** Replaces what was written since `mark` by null. */
  private nullFrom(mark: i32): void {
    this.out.cut(mark);
    this.nulled = false;
    this.out.text("null");
  }

  private leaf(type: string): bool {
    const field = this.current;
    if (field !== null && field.selections.length > 0) {
      this.fail("Field \"" + field.name + "\" must not have a selection since type \"" + type + "\" has no subfields.");
      return false;
    }
    return true;
  }

  writeNull(): void {
    this.emit("null");
  }

  writeBool(value: bool): void {
    if (this.leaf("Boolean")) this.emit(value ? "true" : "false");
  }

  writeInt(value: i32): void {
    if (this.leaf("Int") && !this.nulled) this.out.signed(value);
  }

  /** A Float as JavaScript prints the number; NaN and infinities are field errors, as in graphql-js. */
  writeFloat(value: f64): void {
    if (!this.leaf("Float")) return;
    if (!isFinite(value)) this.fieldError("Float cannot represent non numeric value: " + (isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity"));
    else if (isExactInteger(value)) this.writeDigits(<i64>value);
    else this.emit(floatText(value));
  }

  private writeDigits(value: i64): void {
    if (!this.nulled) this.out.signed(value);
  }

  writeString(value: string): void {
    if (this.leaf("String") && !this.nulled) this.out.string(value);
  }

  /** A 64-bit integer as a String of its decimal digits (docs/serving.md §4.7 rule 4). */
  writeDecimal<T>(value: T): void {
    if (!this.leaf("String") || this.nulled) return;
    this.out.byte(0x22);
    if (isSigned<T>()) this.out.signed(<i64>value);
    else this.out.unsigned(<u64>value);
    this.out.byte(0x22);
  }

  /** A value of the enum type `type` (a GraphQL name: nothing to escape). */
  writeEnum(value: string, type: string): void {
    if (this.leaf(type) && !this.nulled) this.out.string(value);
  }

  /**
   * A list: beginList, then each item with a writer (nextItem between items), then endList.
   * `nonNullItems` as in the schema (`[T!]`): a nulled item then nulls the whole list.
   */
  beginList(nonNullItems: bool = true): void {
    this.emitByte(0x5b);
    this.lists.push(new ListFrame(this.out.length, nonNullItems, !this.nulled));
    this.enter("");
  }

  /** Call before every item but the first. */
  nextItem(): void {
    const frame = this.lists[this.lists.length - 1];
    this.endItem(frame);
    frame.index++;
    this.emitByte(0x2c);
    frame.itemMark = this.out.length;
  }

  endList(): void {
    const frame = this.lists.pop();
    this.endItem(frame);
    this.depth--;
    this.emitByte(0x5d);
  }

  /** A nulled item of a list of nullable items is null; the list goes on. */
  private endItem(frame: ListFrame): void {
    if (this.nulled && frame.live && !frame.nonNullItems && !this.invalid) this.nullFrom(frame.itemMark);
  }

  /** An object (or null) with the sub-selection of the field being written. */
  writeObject(object: GqlObject | null): void {
    if (this.nulled) return;
    const field = this.current;
    if (object === null) {
      this.writeNull();
      return;
    }
    if (field !== null && field.selections.length == 0) {
      this.fail("Field \"" + field.name + "\" of type \"" + object.typeName() + "\" must have a selection of subfields.");
      return;
    }
    this.writeSelections(object, field);
  }

  /** The fields `selections` collects on `type`, collected once for every object they select on. */
  private fieldsOf(type: string, selections: Array<Selection>): CollectedSet {
    if (this.collected.has(selections)) {
      const set = this.collected.get(selections);
      if (set.type == type) return set;
    }
    const fields = new Array<CollectedField>();
    this.collect(type, selections, fields, new Array<string>());
    // Response keys are GraphQL names: nothing to escape.
    for (let i = 0; i < fields.length; i++) fields[i].prefix = encodeUtf8((i ? ",\"" : "\"") + fields[i].key + "\":");
    const set = new CollectedSet(type, fields);
    this.collected.set(selections, set);
    return set;
  }

  /** Appends `key` to the response path. */
  @inline
  private enter(key: string): void {
    if (this.depth < this.path.length) unchecked((this.path[this.depth] = key));
    else this.path.push(key);
    this.depth++;
  }

  /** The fields of `object` that `field`'s sub-selections (or, for the root, `rootSelections`) ask for. */
  private writeSelections(object: GqlObject, field: FieldRequest | null, rootSelections: Array<Selection> | null = null): void {
    const type = object.typeName();
    let set = field !== null ? field.collected : null;
    if (set === null || set.type != type) {
      set = this.fieldsOf(type, field !== null ? field.selections : rootSelections!);
      if (field !== null) field.collected = set;
    }
    const fields = set.fields;
    this.emitByte(0x7b);
    for (let i = 0; i < fields.length && !this.invalid && !this.nulled; i++) {
      const f = fields[i];
      if (!this.nulled) this.out.bytes(f.prefix);
      if (f.typename) {
        if (!this.nulled) this.out.string(type);
        continue;
      }
      const mark = this.out.length;
      if (f.request === null) f.request = new FieldRequest(f.first.name, this.bind(f.first.arguments), f.selections);
      const request = f.request!;
      const outer = this.current;
      const outerStart = this.currentStart;
      this.current = request;
      this.currentStart = f.first.start;
      this.enter(f.key);
      if (!object.resolve(request, this) && !this.invalid) this.fail("Cannot query field \"" + f.first.name + "\" on type \"" + type + "\".");
      this.depth--;
      this.current = outer;
      this.currentStart = outerStart;
      if (this.nulled && !this.invalid && !object.nonNull(f.first.name)) this.nullFrom(mark);
    }
    this.emitByte(0x7d);
  }

  /**
   * Arguments with their variables replaced by the variables' values; an argument whose variable
   * was declared but not given is absent (spec §6.4.1 CoerceArgumentValues).
   */
  private bind(args: Array<Argument>): Array<Argument> {
    const bound = new Array<Argument>();
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      if (v.kind == ValueKind.Variable && this.declared.has(v.text) && !this.variables.has(v.text)) continue;
      bound.push(new Argument(args[i].name, this.bindValue(v)));
    }
    return bound;
  }

  /** A value with its variables bound; inside a list or object, a variable not given is null. */
  private bindValue(value: Value): Value {
    if (value.kind == ValueKind.Variable) {
      if (this.declared.has(value.text) && !this.variables.has(value.text)) return new Value();
      if (!this.variables.has(value.text)) {
        this.fail("Variable \"$" + value.text + "\" is not defined.");
        return new Value();
      }
      return this.variables.get(value.text);
    }
    if (value.kind != ValueKind.List && value.kind != ValueKind.Object) return value;
    const copy = new Value();
    copy.kind = value.kind;
    for (let i = 0; i < value.items.length; i++) copy.items.push(this.bindValue(value.items[i]));
    copy.fields = this.bind(value.fields);
    return copy;
  }

  /** @skip(if:) and @include(if:) (GraphQL spec §3.13). */
  private included(directives: Array<Directive>): bool {
    for (let i = 0; i < directives.length; i++) {
      const d = directives[i];
      if (d.name != "skip" && d.name != "include") continue;
      const args = this.bind(d.arguments);
      if (args.length != 1 || args[0].name != "if" || args[0].value.kind != ValueKind.Boolean) {
        this.fail("Directive \"@" + d.name + "\" needs one Boolean! argument \"if\".");
        return false;
      }
      if (args[0].value.boolean == (d.name == "skip")) return false;
    }
    return true;
  }

  private collect(type: string, selections: Array<Selection>, into: Array<CollectedField>, spreading: Array<string>): void {
    for (let i = 0; i < selections.length && !this.invalid; i++) {
      const s = selections[i];
      if (!this.included(s.directives)) continue;
      if (s.kind == SelectionKind.Field) {
        const key = s.responseKey();
        let merged = false;
        for (let j = 0; j < into.length; j++) {
          if (into[j].key != key) continue;
          if (into[j].first.name != s.name) this.fail("Fields \"" + key + "\" conflict because \"" + into[j].first.name + "\" and \"" + s.name + "\" are different fields.");
          into[j].selections = into[j].selections.concat(s.selections);
          merged = true;
          break;
        }
        if (!merged) into.push(new CollectedField(key, s, s.selections));
      } else if (s.kind == SelectionKind.InlineFragment) {
        if (s.typeCondition.length == 0 || s.typeCondition == type) this.collect(type, s.selections, into, spreading);
      } else {
        if (!this.fragments.has(s.name)) {
          this.fail("Unknown fragment \"" + s.name + "\".");
          return;
        }
        if (spreading.includes(s.name)) {
          this.fail("Cannot spread fragment \"" + s.name + "\" within itself.");
          return;
        }
        const fragment = this.fragments.get(s.name);
        if (fragment.typeCondition != type) continue;
        spreading.push(s.name);
        this.collect(type, fragment.selections, into, spreading);
        spreading.pop();
      }
    }
  }

  private chooseOperation(doc: Document, operationName: string | null): Operation | null {
    if (operationName !== null) {
      for (let i = 0; i < doc.operations.length; i++) if (doc.operations[i].name == operationName) return doc.operations[i];
      this.fail("Unknown operation named \"" + operationName + "\".");
      return null;
    }
    if (doc.operations.length != 1) {
      this.fail(doc.operations.length == 0 ? "Must provide an operation." : "Must provide operation name if query contains multiple operations.");
      return null;
    }
    return doc.operations[0];
  }

  private bindVariables(op: Operation, variables: JsonValue | null): void {
    for (let i = 0; i < op.variables.length; i++) {
      const def = op.variables[i];
      this.declared.add(def.name);
      const given = variables !== null && variables.kind == JsonKind.Object ? variables.get(def.name) : null;
      if (given !== null && !(given.kind == JsonKind.Null && def.defaultValue !== null)) {
        if (given.kind == JsonKind.Null && def.type.nonNull) this.fail("Variable \"$" + def.name + "\" of non-null type \"" + def.type.toString() + "\" must not be null.");
        this.variables.set(def.name, fromJson(given));
      } else if (def.defaultValue !== null) {
        this.variables.set(def.name, def.defaultValue!);
      } else if (def.type.nonNull) {
        this.fail("Variable \"$" + def.name + "\" of required type \"" + def.type.toString() + "\" was not provided.");
      }
    }
  }

  /** Runs a query document on `root`; returns the GraphQL response as JSON (UTF-8). */
  run(root: GqlObject, source: string, operationName: string | null, variables: JsonValue | null): JsonWriter {
    this.source = source;
    // The data is written after this prefix: a response without errors is the output as it stands.
    this.out.text("{\"data\":");
    const dataStart = this.out.length;
    const parsed = parse(source);
    if (parsed.document !== null) {
      const doc = parsed.document!;
      for (let i = 0; i < doc.fragments.length; i++) this.fragments.set(doc.fragments[i].name, doc.fragments[i]);
      const op = this.chooseOperation(doc, operationName);
      if (op !== null && op.operation != "query") this.fail("Only queries are supported: services answer GraphQL without writing.");
      if (op !== null && !this.invalid) {
        this.bindVariables(op, variables);
        if (!this.invalid) this.writeSelections(root, null, op.selections);
      }
    } else {
      this.fail(parsed.error);
    }
    if (this.invalid) return this.response("{\"errors\":" + this.errorsJson(false) + "}");
    if (this.nulled) this.nullFrom(dataStart);
    if (this.errors.length == 0) {
      this.out.byte(0x7d);
      return this.out;
    }
    const response = this.response("{\"errors\":" + this.errorsJson(true) + ",\"data\":");
    response.bytes(this.out.finish().subarray(dataStart));
    response.byte(0x7d);
    return response;
  }

  private response(text: string): JsonWriter {
    const response = new JsonWriter();
    response.text(text);
    return response;
  }

  /** The field errors (`fieldErrors`) or the validation errors, as a JSON array. */
  private errorsJson(fieldErrors: bool): string {
    const items = new Array<string>();
    for (let i = 0; i < this.errors.length; i++) {
      const e = this.errors[i];
      if ((e.path !== null) == fieldErrors) items.push(fieldErrorJson(e, this.source));
    }
    return "[" + items.join(",") + "]";
  }
}

/** Runs `source` on `root` (docs/serving.md §4.7); the GraphQL response as JSON text. */
export function executeQuery(root: GqlObject, source: string, operationName: string | null = null, variables: JsonValue | null = null): string {
  return new Execution().run(root, source, operationName, variables).toString();
}

/** executeQuery's response as UTF-8, as /graphql sends it. */
export function executeQueryUtf8(root: GqlObject, source: string, operationName: string | null = null, variables: JsonValue | null = null): Uint8Array {
  return new Execution().run(root, source, operationName, variables).finish();
}
