// The schema introspection describes (GraphQL spec §4.2): the types a service's SDL defines, the
// built-in scalars they refer to, the built-in directives and the introspection types. Types are
// listed as graphql-js `buildSchema` lists them, so a client sees the same order: each of the
// SDL's types in order, each followed by the built-in types first reached from it (depth first
// through field and argument types), then those the directives' arguments reach, then those
// `__Schema` reaches. An SDL that cannot be served aborts with a `graphql schema:` message: it is
// the service's own text, so that is a bug to report, not a query's error.

import { abort, check } from "../abort";
import { TypeRef } from "./ast";
import { BUILTIN_SDL } from "./builtin-schema";
import { parseSdl } from "./sdl-parser";
import { SchemaDirective, SchemaType, TypeSystemDocument } from "./type-system";

function parsed(sdl: string, what: string): TypeSystemDocument {
  const result = parseSdl(sdl);
  if (result.document === null) abort("graphql schema: " + what + " does not parse: " + result.error);
  return result.document!;
}

function namedType(ref: TypeRef): string {
  let named = ref;
  while (named.item !== null) named = named.item!;
  return named.name;
}

export class Schema {
  /** Every type of the schema, in graphql-js's order. */
  readonly types: Array<SchemaType> = [];
  readonly directives: Array<SchemaDirective> = [];
  private byName: Map<string, SchemaType> = new Map<string, SchemaType>();

  /** The type named `name`, or null when the schema has none (also for built-ins nothing refers to). */
  type(name: string): SchemaType | null {
    return this.byName.has(name) ? this.byName.get(name) : null;
  }

  /** Adds `type` and, depth first, the types its fields and arguments reach that are not in yet. */
  private add(type: SchemaType, defined: Map<string, SchemaType>): void {
    this.types.push(type);
    this.byName.set(type.name, type);
    for (let i = 0; i < type.fields.length; i++) {
      const field = type.fields[i];
      this.reach(field.type, defined, type.name + "." + field.name);
      for (let j = 0; j < field.args.length; j++) this.reach(field.args[j].type, defined, type.name + "." + field.name);
    }
  }

  private reach(ref: TypeRef, defined: Map<string, SchemaType>, where: string): void {
    const name = namedType(ref);
    if (this.byName.has(name)) return;
    check(defined.has(name), "graphql schema: unknown type " + name + " (in " + where + ")");
    this.add(defined.get(name), defined);
  }

  /** The schema of a service's SDL (possibly several roots merged, sdk/graphql/merged-query.ts). */
  static build(sdl: string): Schema {
    const own = parsed(sdl, "the service's SDL");
    const builtin = parsed(BUILTIN_SDL, "the built-in SDL");
    const defined = new Map<string, SchemaType>();
    for (let i = 0; i < builtin.types.length; i++) defined.set(builtin.types[i].name, builtin.types[i]);
    for (let i = 0; i < own.types.length; i++) {
      const name = own.types[i].name;
      check(!defined.has(name), "graphql schema: type " + name + " is defined twice or is built in");
      defined.set(name, own.types[i]);
    }
    check(defined.has("Query") && defined.get("Query").fields.length > 0, "graphql schema: the SDL defines no object type Query");
    const schema = new Schema();
    for (let i = 0; i < own.directives.length; i++) schema.addDirective(own.directives[i], defined);
    for (let i = 0; i < builtin.directives.length; i++) {
      if (!schema.hasDirective(builtin.directives[i].name)) schema.addDirective(builtin.directives[i], defined);
    }
    // graphql-js takes the SDL's types first (each as a root of its own walk), so reaching one
    // from an earlier one does not move it.
    for (let i = 0; i < own.types.length; i++) schema.byName.set(own.types[i].name, own.types[i]);
    for (let i = 0; i < own.types.length; i++) schema.add(own.types[i], defined);
    for (let i = 0; i < schema.directives.length; i++) {
      const d = schema.directives[i];
      for (let j = 0; j < d.args.length; j++) schema.reach(d.args[j].type, defined, "@" + d.name);
    }
    schema.reach(namedRef("__Schema"), defined, "the introspection types");
    return schema;
  }

  private hasDirective(name: string): bool {
    for (let i = 0; i < this.directives.length; i++) if (this.directives[i].name == name) return true;
    return false;
  }

  private addDirective(directive: SchemaDirective, defined: Map<string, SchemaType>): void {
    check(!this.hasDirective(directive.name), "graphql schema: directive @" + directive.name + " is defined twice");
    const locations = defined.get("__DirectiveLocation").enumValues;
    for (let i = 0; i < directive.locations.length; i++) {
      let known = false;
      for (let j = 0; j < locations.length; j++) if (locations[j].name == directive.locations[i]) known = true;
      check(known, "graphql schema: @" + directive.name + ": unknown directive location " + directive.locations[i]);
    }
    this.directives.push(directive);
  }
}

/** A reference to the named type `name` (nullable). */
export function namedRef(name: string): TypeRef {
  const ref = new TypeRef();
  ref.name = name;
  return ref;
}
