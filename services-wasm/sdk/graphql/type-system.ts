// A GraphQL type system as an SDL document defines it (GraphQL spec §3): the named types, their
// fields and arguments, enum values and directive definitions, with descriptions, default values
// (as GraphQL text) and deprecation reasons. Introspection (introspection.ts) answers from it.

import { TypeRef } from "./ast";

/** An argument of a field or directive (spec §3.6.1); the spec calls both input values. */
export class SchemaInputValue {
  name: string = "";
  description: string | null = null;
  type: TypeRef = new TypeRef();
  /** The default value as GraphQL text (`false`, `"No longer supported"`); null when none. */
  defaultValue: string | null = null;
  deprecationReason: string | null = null;
}

export class SchemaField {
  name: string = "";
  description: string | null = null;
  args: Array<SchemaInputValue> = [];
  type: TypeRef = new TypeRef();
  deprecationReason: string | null = null;
}

export class SchemaEnumValue {
  name: string = "";
  description: string | null = null;
  deprecationReason: string | null = null;
}

/** The kinds of named types an SDL here may define (a subset of spec §4.2.2's __TypeKind). */
export const SCALAR = "SCALAR";
export const OBJECT = "OBJECT";
export const ENUM = "ENUM";

export class SchemaType {
  /** SCALAR, OBJECT or ENUM, as __TypeKind names it. */
  kind: string = OBJECT;
  name: string = "";
  description: string | null = null;
  /** An object's fields, in order. */
  fields: Array<SchemaField> = [];
  /** An enum's values, in order. */
  enumValues: Array<SchemaEnumValue> = [];
  /** A scalar's @specifiedBy(url:). */
  specifiedByURL: string | null = null;
}

export class SchemaDirective {
  name: string = "";
  description: string | null = null;
  args: Array<SchemaInputValue> = [];
  repeatable: bool = false;
  /** __DirectiveLocation names, in order. */
  locations: Array<string> = [];
}

/** The definitions of one SDL document, in order. */
export class TypeSystemDocument {
  types: Array<SchemaType> = [];
  directives: Array<SchemaDirective> = [];
}
