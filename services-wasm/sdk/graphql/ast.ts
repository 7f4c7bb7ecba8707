// The syntax tree of an executable GraphQL document (GraphQL spec §2): operations, fragments,
// selections and values; selections know where they begin in the source (for error locations).

export enum ValueKind {
  Variable,
  Int,
  Float,
  String,
  Boolean,
  Null,
  Enum,
  List,
  Object,
}

export class Value {
  kind: ValueKind = ValueKind.Null;
  /** A variable's name; a number's text; a string's value; an enum's name. */
  text: string = "";
  boolean: bool = false;
  /** A list's items. */
  items: Array<Value> = [];
  /** An object's fields, in order. */
  fields: Array<Argument> = [];
}

/** An argument, or a field of an object value. */
export class Argument {
  constructor(public name: string = "", public value: Value = new Value()) {}
}

export class Directive {
  name: string = "";
  arguments: Array<Argument> = [];
}

export enum SelectionKind {
  Field,
  FragmentSpread,
  InlineFragment,
}

export class Selection {
  kind: SelectionKind = SelectionKind.Field;
  /** Field: the alias, "" when none. */
  alias: string = "";
  /** Field: its name; fragment spread: the fragment's name. */
  name: string = "";
  arguments: Array<Argument> = [];
  directives: Array<Directive> = [];
  /** Inline fragment: its type condition, "" when none. */
  typeCondition: string = "";
  /** Field (empty for a leaf) and inline fragment. */
  selections: Array<Selection> = [];
  /** The UTF-16 offset of its first token in the source. */
  start: i32 = 0;

  /** The key of a field in the response: its alias, else its name. */
  responseKey(): string {
    return this.alias.length > 0 ? this.alias : this.name;
  }
}

/** A type reference: a named type, a list of one, or a non-null one. */
export class TypeRef {
  /** The named type; "" for a list. */
  name: string = "";
  /** A list's item type. */
  item: TypeRef | null = null;
  nonNull: bool = false;

  /** As written in a schema or a query: `Int`, `[ID!]!`. */
  toString(): string {
    const item = this.item;
    return (item !== null ? "[" + item.toString() + "]" : this.name) + (this.nonNull ? "!" : "");
  }
}

export class VariableDefinition {
  name: string = "";
  type: TypeRef = new TypeRef();
  defaultValue: Value | null = null;
  directives: Array<Directive> = [];
}

/** What operations and fragments have in common. */
export class Definition {
  /** "" for an anonymous operation. */
  name: string = "";
  directives: Array<Directive> = [];
  selections: Array<Selection> = [];
}

export class Operation extends Definition {
  /** `query`, `mutation` or `subscription`. */
  operation: string = "query";
  variables: Array<VariableDefinition> = [];
}

export class Fragment extends Definition {
  typeCondition: string = "";
}

export class Document {
  operations: Array<Operation> = [];
  fragments: Array<Fragment> = [];
}
