// A parser of the type system SDL a service serves (GraphQL spec §3): scalar, object (`type`)
// and enum definitions and directive definitions, with descriptions, field arguments, default
// values, `@deprecated` (fields, arguments, enum values) and `@specifiedBy` (scalars). The
// generated SDL (transform/graphql.mjs) and hand-written roots use object types only; enums and
// directive definitions describe the built-in schema (builtin-schema.ts). Interfaces, unions,
// input types, `schema` and `extend` definitions are refused with a message naming them.

import { Directive, ValueKind } from "./ast";
import { TokenKind } from "./lexer";
import { ParseResult, Parser } from "./parser";
import {
  ENUM, OBJECT, SCALAR, SchemaDirective, SchemaEnumValue, SchemaField, SchemaInputValue, SchemaType, TypeSystemDocument,
} from "./type-system";
import { valueText } from "./value-text";

/** Parses an SDL document; an error gives no document and a message naming the definition it is in. */
export function parseSdl(source: string): ParseResult<TypeSystemDocument> {
  const parser = new SdlParser(source);
  const document = parser.typeSystem();
  if (parser.error.length == 0) return new ParseResult<TypeSystemDocument>(document);
  const where = parser.definition.length > 0 ? " (in " + parser.definition + ")" : "";
  return new ParseResult<TypeSystemDocument>(null, parser.error + where);
}

const DEFAULT_DEPRECATION = "No longer supported";

class SdlParser extends Parser {
  /** The definition being parsed, e.g. `type Query`, for error messages. */
  definition: string = "";

  typeSystem(): TypeSystemDocument {
    const doc = new TypeSystemDocument();
    if (this.token.kind == TokenKind.End) this.unexpected();
    while (!this.failed && this.token.kind != TokenKind.End) {
      const description = this.description();
      const keyword = this.token.kind == TokenKind.Name ? this.token.value : "";
      if (keyword == "type" || keyword == "scalar" || keyword == "enum") doc.types.push(this.namedType(keyword, description));
      else if (keyword == "directive") doc.directives.push(this.directiveDefinition(description));
      else if (keyword.length > 0) this.fail("Unsupported definition \"" + keyword + "\": a service's SDL defines object types, scalars, enums and directives.");
      else this.unexpected();
    }
    return doc;
  }

  /** A description (a string or block string before a definition), or null. */
  private description(): string | null {
    if (this.failed || (this.token.kind != TokenKind.String && this.token.kind != TokenKind.BlockString)) return null;
    return this.advance().value;
  }

  private namedType(keyword: string, description: string | null): SchemaType {
    this.advance();
    const type = new SchemaType();
    type.description = description;
    type.name = this.name();
    this.definition = keyword + " " + type.name;
    if (keyword == "scalar") {
      type.kind = SCALAR;
      type.specifiedByURL = this.appliedString(this.directives(true), "specifiedBy", "url", null);
    } else if (keyword == "enum") {
      type.kind = ENUM;
      this.appliedString(this.directives(true), "", "", null);
      this.expect("{");
      do type.enumValues.push(this.enumValue());
      while (!this.failed && !this.skip("}"));
    } else {
      type.kind = OBJECT;
      if (this.peekName("implements")) this.fail("Interfaces are not supported: a service's SDL defines object types without them.");
      this.appliedString(this.directives(true), "", "", null);
      this.expect("{");
      do type.fields.push(this.field());
      while (!this.failed && !this.skip("}"));
    }
    return type;
  }

  private field(): SchemaField {
    const field = new SchemaField();
    field.description = this.description();
    field.name = this.name();
    field.args = this.argumentsDefinition();
    this.expect(":");
    field.type = this.typeRef();
    field.deprecationReason = this.deprecation();
    return field;
  }

  private argumentsDefinition(): Array<SchemaInputValue> {
    const args = new Array<SchemaInputValue>();
    if (!this.skip("(")) return args;
    do {
      const arg = new SchemaInputValue();
      arg.description = this.description();
      arg.name = this.name();
      this.expect(":");
      arg.type = this.typeRef();
      if (this.skip("=")) arg.defaultValue = valueText(this.value(true));
      arg.deprecationReason = this.deprecation();
      args.push(arg);
    } while (!this.failed && !this.skip(")"));
    return args;
  }

  private enumValue(): SchemaEnumValue {
    const value = new SchemaEnumValue();
    value.description = this.description();
    value.name = this.name();
    if (value.name == "true" || value.name == "false" || value.name == "null") this.fail("Enum values cannot be named \"" + value.name + "\".");
    value.deprecationReason = this.deprecation();
    return value;
  }

  /** The reason of an applied @deprecated, null when not deprecated. */
  private deprecation(): string | null {
    return this.appliedString(this.directives(true), "deprecated", "reason", DEFAULT_DEPRECATION);
  }

  /**
   * The string argument `argument` of `@allowed` when it is applied (`fallback` when the argument
   * is absent), null when not applied; any other applied directive is refused ("" allows none).
   */
  private appliedString(directives: Array<Directive>, allowed: string, argument: string, fallback: string | null): string | null {
    let found: string | null = null;
    for (let i = 0; i < directives.length && !this.failed; i++) {
      const d = directives[i];
      if (d.name != allowed) {
        this.fail("Directive \"@" + d.name + "\" is not supported here.");
        break;
      }
      found = fallback;
      for (let j = 0; j < d.arguments.length; j++) {
        const a = d.arguments[j];
        if (a.name == argument && a.value.kind == ValueKind.String) found = a.value.text;
        else this.fail("Directive \"@" + allowed + "\" takes one String argument \"" + argument + "\".");
      }
      if (found === null) this.fail("Directive \"@" + allowed + "\" needs its argument \"" + argument + "\".");
    }
    return found;
  }

  private directiveDefinition(description: string | null): SchemaDirective {
    this.advance();
    const directive = new SchemaDirective();
    directive.description = description;
    this.expect("@");
    directive.name = this.name();
    this.definition = "directive @" + directive.name;
    directive.args = this.argumentsDefinition();
    if (this.peekName("repeatable")) {
      this.advance();
      directive.repeatable = true;
    }
    if (!this.peekName("on")) this.fail("Expected \"on\" and the directive's locations.");
    this.advance();
    this.skip("|");
    do directive.locations.push(this.name());
    while (this.skip("|"));
    return directive;
  }
}
