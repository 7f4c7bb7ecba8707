// GraphQL introspection (spec §4): `__schema` and `__type(name:)` at the root of a served Query,
// answered from the SDL the service serves (schema.ts) by objects of the introspection types
// (`__Schema`, `__Type`, `__Field`, `__InputValue`, `__EnumValue`, `__Directive`). They are
// GqlObjects like any other, so the executor gives them field selection, aliases, fragments,
// variables and `__typename`. Which fields they have and which arguments those take come from
// the introspection types' own SDL (builtin-schema.ts), checked as a validator would. The schema
// is built when a query first asks for it: queries that do not introspect cost nothing.

import { TypeRef, ValueKind } from "./ast";
import { acceptArguments } from "./arguments";
import { Execution, FieldRequest, GqlObject } from "./execute";
import { Schema, namedRef } from "./schema";
import { ENUM, OBJECT, SCALAR, SchemaDirective, SchemaEnumValue, SchemaField, SchemaInputValue } from "./type-system";
import { writeList, writeOptionalString } from "./values";

/** The field `name` of `type` (in `schema`), or null. */
function fieldOf(schema: Schema, type: string, name: string): SchemaField | null {
  const fields = schema.type(type)!.fields;
  for (let i = 0; i < fields.length; i++) if (fields[i].name == name) return fields[i];
  return null;
}

/** Checks `field`'s arguments against `declared` (of type `type`); an argument with a default may be left out. */
function argumentsAccepted(declared: SchemaField, type: string, field: FieldRequest, exec: Execution): bool {
  const args = declared.args;
  let required = false;
  for (let i = 0; i < args.length; i++) if (args[i].type.nonNull && args[i].defaultValue === null) required = true;
  if (field.arguments.length == 0 && !required) return true;
  const names = new Array<string>(args.length);
  const types = new Array<string>(args.length);
  for (let i = 0; i < args.length; i++) {
    names[i] = args[i].name;
    const text = args[i].type.toString();
    const omitted = args[i].defaultValue !== null && field.argument(args[i].name) === null;
    types[i] = omitted && text.endsWith("!") ? text.substring(0, text.length - 1) : text;
  }
  return acceptArguments(field, exec, type + "." + field.name, names, types);
}

/** `includeDeprecated` (default false). */
function includeDeprecated(field: FieldRequest): bool {
  const v = field.argument("includeDeprecated");
  return v !== null && v.kind == ValueKind.Boolean && v.boolean;
}

function writeObjects(exec: Execution, objects: Array<GqlObject>): void {
  writeList<GqlObject>(exec, objects, (e: Execution, object: GqlObject): void => e.writeObject(object), true);
}

function writeInputValues(exec: Execution, schema: Schema, args: Array<SchemaInputValue>, withDeprecated: bool): void {
  const objects = new Array<GqlObject>();
  for (let i = 0; i < args.length; i++) {
    if (withDeprecated || args[i].deprecationReason === null) objects.push(new InputValueObject(schema, args[i]));
  }
  writeObjects(exec, objects);
}

/** An object of an introspection type: the field is looked up and its arguments checked before `answer` writes it. */
abstract class IntrospectionObject extends GqlObject {
  constructor(protected schema: Schema) {
    super();
  }

  /** Writes `field`, a field of this type with valid arguments. */
  abstract answer(field: FieldRequest, exec: Execution): void;

  resolve(field: FieldRequest, exec: Execution): bool {
    const declared = fieldOf(this.schema, this.typeName(), field.name);
    if (declared === null) return false;
    if (argumentsAccepted(declared, this.typeName(), field, exec)) this.answer(field, exec);
    return true;
  }
}

/** `__Schema`. */
class SchemaObject extends IntrospectionObject {
  typeName(): string {
    return "__Schema";
  }

  answer(field: FieldRequest, exec: Execution): void {
    const name = field.name;
    const schema = this.schema;
    if (name == "description") {
      // Only a `schema` definition has a description, and a service's SDL has none.
      exec.writeNull();
    } else if (name == "types") {
      const objects = new Array<GqlObject>(schema.types.length);
      for (let i = 0; i < schema.types.length; i++) objects[i] = new TypeObject(schema, namedRef(schema.types[i].name), true);
      writeObjects(exec, objects);
    } else if (name == "directives") {
      // SDL cannot deprecate a directive: includeDeprecated changes nothing.
      const objects = new Array<GqlObject>(schema.directives.length);
      for (let i = 0; i < schema.directives.length; i++) objects[i] = new DirectiveObject(schema, schema.directives[i]);
      writeObjects(exec, objects);
    } else {
      // queryType, mutationType, subscriptionType: as in graphql-js buildSchema, the types named Query, Mutation, Subscription.
      const root = name == "queryType" ? "Query" : name == "mutationType" ? "Mutation" : "Subscription";
      exec.writeObject(schema.type(root) !== null ? new TypeObject(schema, namedRef(root), true) : null);
    }
  }
}

/**
 * `__Type`: the type `ref` refers to; with `outer` false, the type its non-null marker wraps
 * (the `ofType` of a NON_NULL).
 */
class TypeObject extends IntrospectionObject {
  constructor(schema: Schema, private ref: TypeRef, private outer: bool) {
    super(schema);
  }

  typeName(): string {
    return "__Type";
  }

  private get isNonNull(): bool {
    return this.outer && this.ref.nonNull;
  }

  private get isList(): bool {
    return !this.isNonNull && this.ref.item !== null;
  }

  answer(field: FieldRequest, exec: Execution): void {
    const name = field.name;
    if (name == "kind") {
      exec.writeEnum(this.isNonNull ? "NON_NULL" : this.isList ? "LIST" : this.schema.type(this.ref.name)!.kind, "__TypeKind");
    } else if (name == "ofType") {
      if (this.isNonNull) exec.writeObject(new TypeObject(this.schema, this.ref, false));
      else if (this.isList) exec.writeObject(new TypeObject(this.schema, this.ref.item!, true));
      else exec.writeNull();
    } else if (this.isNonNull || this.isList) {
      // A wrapping type has a kind and an ofType, nothing else.
      exec.writeNull();
    } else {
      this.answerNamed(field, exec);
    }
  }

  private answerNamed(field: FieldRequest, exec: Execution): void {
    const type = this.schema.type(this.ref.name)!;
    const name = field.name;
    if (name == "name") {
      exec.writeString(type.name);
    } else if (name == "description") {
      writeOptionalString(exec, type.description);
    } else if (name == "specifiedByURL") {
      writeOptionalString(exec, type.kind == SCALAR ? type.specifiedByURL : null);
    } else if (name == "fields" && type.kind == OBJECT) {
      const objects = new Array<GqlObject>();
      const all = includeDeprecated(field);
      for (let i = 0; i < type.fields.length; i++) {
        if (all || type.fields[i].deprecationReason === null) objects.push(new FieldObject(this.schema, type.fields[i]));
      }
      writeObjects(exec, objects);
    } else if (name == "interfaces" && type.kind == OBJECT) {
      // Object types here implement no interfaces (the SDL parser refuses them).
      writeObjects(exec, []);
    } else if (name == "enumValues" && type.kind == ENUM) {
      const objects = new Array<GqlObject>();
      const all = includeDeprecated(field);
      for (let i = 0; i < type.enumValues.length; i++) {
        if (all || type.enumValues[i].deprecationReason === null) objects.push(new EnumValueObject(this.schema, type.enumValues[i]));
      }
      writeObjects(exec, objects);
    } else {
      // What other kinds have (possibleTypes, inputFields, isOneOf), or another kind's field: null.
      exec.writeNull();
    }
  }
}

/**
 * `__Field`, `__InputValue`, `__EnumValue` and `__Directive`: elements with a name, a description
 * and a deprecation, answered here; `answerOwn` writes the fields of their own kind.
 */
abstract class ElementObject extends IntrospectionObject {
  constructor(schema: Schema, private name: string, private description: string | null, private deprecationReason: string | null) {
    super(schema);
  }

  /** Writes a field of this element's own kind (a __EnumValue has none). */
  answerOwn(field: FieldRequest, exec: Execution): void {
    exec.writeNull();
  }

  answer(field: FieldRequest, exec: Execution): void {
    const name = field.name;
    if (name == "name") exec.writeString(this.name);
    else if (name == "description") writeOptionalString(exec, this.description);
    else if (name == "isDeprecated") exec.writeBool(this.deprecationReason !== null);
    else if (name == "deprecationReason") writeOptionalString(exec, this.deprecationReason);
    else this.answerOwn(field, exec);
  }
}

/** `__Field`. */
class FieldObject extends ElementObject {
  constructor(schema: Schema, private field: SchemaField) {
    super(schema, field.name, field.description, field.deprecationReason);
  }

  typeName(): string {
    return "__Field";
  }

  answerOwn(field: FieldRequest, exec: Execution): void {
    if (field.name == "args") writeInputValues(exec, this.schema, this.field.args, includeDeprecated(field));
    else exec.writeObject(new TypeObject(this.schema, this.field.type, true));
  }
}

/** `__InputValue`: a field's or a directive's argument. */
class InputValueObject extends ElementObject {
  constructor(schema: Schema, private value: SchemaInputValue) {
    super(schema, value.name, value.description, value.deprecationReason);
  }

  typeName(): string {
    return "__InputValue";
  }

  answerOwn(field: FieldRequest, exec: Execution): void {
    if (field.name == "type") exec.writeObject(new TypeObject(this.schema, this.value.type, true));
    else writeOptionalString(exec, this.value.defaultValue);
  }
}

/** `__EnumValue`. */
class EnumValueObject extends ElementObject {
  constructor(schema: Schema, value: SchemaEnumValue) {
    super(schema, value.name, value.description, value.deprecationReason);
  }

  typeName(): string {
    return "__EnumValue";
  }
}

/** `__Directive` (SDL has no way to deprecate a directive). */
class DirectiveObject extends ElementObject {
  constructor(schema: Schema, private directive: SchemaDirective) {
    super(schema, directive.name, directive.description, null);
  }

  typeName(): string {
    return "__Directive";
  }

  answerOwn(field: FieldRequest, exec: Execution): void {
    const d = this.directive;
    if (field.name == "isRepeatable") {
      exec.writeBool(d.repeatable);
    } else if (field.name == "locations") {
      writeList<string>(exec, d.locations, (e: Execution, location: string): void => e.writeEnum(location, "__DirectiveLocation"), true);
    } else {
      writeInputValues(exec, this.schema, d.args, includeDeprecated(field));
    }
  }
}

/**
 * A served Query root that also answers `__schema` and `__type(name:)` from `sdl`, the schema it
 * serves; every other field goes to `root`.
 */
export class IntrospectedQuery extends GqlObject {
  private schema: Schema | null = null;

  constructor(private root: GqlObject, private sdl: string) {
    super();
  }

  typeName(): string {
    return this.root.typeName();
  }

  nonNull(field: string): bool {
    return field == "__schema" || this.root.nonNull(field);
  }

  private built(): Schema {
    if (this.schema === null) this.schema = Schema.build(this.sdl);
    return this.schema!;
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "__schema") {
      if (field.arguments.length == 0 || acceptArguments(field, exec, "Query.__schema", [], [])) exec.writeObject(new SchemaObject(this.built()));
    } else if (field.name == "__type") {
      if (!acceptArguments(field, exec, "Query.__type", ["name"], ["String!"])) return true;
      const schema = this.built();
      const name = field.argument("name")!.text;
      exec.writeObject(schema.type(name) !== null ? new TypeObject(schema, namedRef(name), true) : null);
    } else {
      return this.root.resolve(field, exec);
    }
    return true;
  }
}
