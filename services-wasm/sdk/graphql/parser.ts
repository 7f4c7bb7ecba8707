// A parser of executable GraphQL documents (GraphQL spec §2): operations (and the query
// shorthand), fragments, variables with types and defaults, directives, aliases, arguments and
// every kind of value. Type system definitions are refused here (sdl-parser.ts extends this
// parser to read them). Errors do not abort: a query's syntax error is part of its GraphQL
// response, so parse() returns it.

import {
  Argument, Directive, Document, Fragment, Operation, Selection, SelectionKind, TypeRef, Value, ValueKind, VariableDefinition,
} from "./ast";
import { Lexer, Token, TokenKind } from "./lexer";

/** A parsed document (an executable one, or a type system's), or no document and the error that stopped the parse. */
export class ParseResult<T> {
  constructor(public document: T | null, public error: string = "") {}
}

/** Parses `source`; a syntax error gives no document and a message `Syntax Error: …`. */
export function parse(source: string): ParseResult<Document> {
  const parser = new Parser(source);
  const document = parser.document();
  return parser.error.length > 0 ? new ParseResult<Document>(null, "Syntax Error: " + parser.error) : new ParseResult<Document>(document);
}

function describe(token: Token): string {
  if (token.kind == TokenKind.End) return "<EOF>";
  if (token.kind == TokenKind.Punctuator) return "\"" + token.value + "\"";
  if (token.kind == TokenKind.Name) return "Name \"" + token.value + "\"";
  if (token.kind == TokenKind.Int) return "Int \"" + token.value + "\"";
  if (token.kind == TokenKind.Float) return "Float \"" + token.value + "\"";
  return "String";
}

export class Parser {
  private lexer: Lexer;
  protected token: Token = new Token();
  error: string = "";

  constructor(source: string) {
    this.lexer = new Lexer(source);
    this.token = this.lexer.next();
    this.takeLexerError();
  }

  protected get failed(): bool {
    return this.error.length > 0;
  }

  /** Records `message` unless an error came first. */
  protected fail(message: string): void {
    if (!this.failed) this.error = message;
  }

  private takeLexerError(): void {
    if (this.lexer.error.length > 0) this.fail(this.lexer.error);
  }

  protected unexpected(): void {
    this.fail("Unexpected " + describe(this.token) + ".");
  }

  protected advance(): Token {
    const token = this.token;
    this.token = this.lexer.next();
    this.takeLexerError();
    return token;
  }

  protected peek(punctuator: string): bool {
    return !this.failed && this.token.kind == TokenKind.Punctuator && this.token.value == punctuator;
  }

  protected peekName(name: string): bool {
    return !this.failed && this.token.kind == TokenKind.Name && this.token.value == name;
  }

  /** Skips `punctuator` if it is next. */
  protected skip(punctuator: string): bool {
    if (!this.peek(punctuator)) return false;
    this.advance();
    return true;
  }

  protected expect(punctuator: string): void {
    if (!this.skip(punctuator)) this.fail("Expected \"" + punctuator + "\", found " + describe(this.token) + ".");
  }

  protected name(): string {
    if (!this.failed && this.token.kind == TokenKind.Name) return this.advance().value;
    this.fail("Expected Name, found " + describe(this.token) + ".");
    return "";
  }

  document(): Document {
    const doc = new Document();
    if (this.token.kind == TokenKind.End) this.unexpected();
    while (!this.failed && this.token.kind != TokenKind.End) {
      if (this.peek("{")) {
        const op = new Operation();
        op.selections = this.selectionSet();
        doc.operations.push(op);
      } else if (this.peekName("query") || this.peekName("mutation") || this.peekName("subscription")) {
        doc.operations.push(this.operation());
      } else if (this.peekName("fragment")) {
        doc.fragments.push(this.fragment());
      } else {
        this.unexpected();
      }
    }
    return doc;
  }

  private operation(): Operation {
    const op = new Operation();
    op.operation = this.advance().value;
    if (this.token.kind == TokenKind.Name) op.name = this.name();
    if (this.skip("(")) {
      do op.variables.push(this.variableDefinition());
      while (!this.failed && !this.skip(")"));
    }
    op.directives = this.directives(true);
    op.selections = this.selectionSet();
    return op;
  }

  private variableDefinition(): VariableDefinition {
    const v = new VariableDefinition();
    this.expect("$");
    v.name = this.name();
    this.expect(":");
    v.type = this.typeRef();
    if (this.skip("=")) v.defaultValue = this.value(true);
    v.directives = this.directives(true);
    return v;
  }

  protected typeRef(): TypeRef {
    const t = new TypeRef();
    if (this.skip("[")) {
      t.item = this.typeRef();
      this.expect("]");
    } else {
      t.name = this.name();
    }
    if (this.skip("!")) t.nonNull = true;
    return t;
  }

  private fragment(): Fragment {
    this.advance();
    const f = new Fragment();
    if (this.peekName("on")) this.unexpected();
    f.name = this.name();
    if (!this.peekName("on")) this.fail("Expected \"on\", found " + describe(this.token) + ".");
    this.advance();
    f.typeCondition = this.name();
    f.directives = this.directives(false);
    f.selections = this.selectionSet();
    return f;
  }

  private selectionSet(): Array<Selection> {
    const selections = new Array<Selection>();
    this.expect("{");
    do selections.push(this.selection());
    while (!this.failed && !this.skip("}"));
    return selections;
  }

  private selection(): Selection {
    const s = new Selection();
    s.start = this.token.start;
    if (this.skip("...")) {
      if (this.token.kind == TokenKind.Name && this.token.value != "on") {
        s.kind = SelectionKind.FragmentSpread;
        s.name = this.name();
        s.directives = this.directives(false);
        return s;
      }
      s.kind = SelectionKind.InlineFragment;
      if (this.peekName("on")) {
        this.advance();
        s.typeCondition = this.name();
      }
      s.directives = this.directives(false);
      s.selections = this.selectionSet();
      return s;
    }
    const first = this.name();
    if (this.skip(":")) {
      s.alias = first;
      s.name = this.name();
    } else {
      s.name = first;
    }
    s.arguments = this.arguments(false);
    s.directives = this.directives(false);
    if (this.peek("{")) s.selections = this.selectionSet();
    return s;
  }

  protected arguments(isConst: bool): Array<Argument> {
    const args = new Array<Argument>();
    if (!this.skip("(")) return args;
    do args.push(this.argument(isConst));
    while (!this.failed && !this.skip(")"));
    return args;
  }

  /** `name: value`: an argument, or a field of an object value. */
  private argument(isConst: bool): Argument {
    const name = this.name();
    this.expect(":");
    return new Argument(name, this.value(isConst));
  }

  protected directives(isConst: bool): Array<Directive> {
    const list = new Array<Directive>();
    while (this.skip("@")) {
      const d = new Directive();
      d.name = this.name();
      d.arguments = this.arguments(isConst);
      list.push(d);
    }
    return list;
  }

  /** A value; variables are refused where the spec wants a constant (defaults, const directives). */
  protected value(isConst: bool): Value {
    const v = new Value();
    if (this.failed) return v;
    const t = this.token;
    if (t.kind == TokenKind.Punctuator) {
      if (t.value == "$" && !isConst) {
        this.advance();
        v.kind = ValueKind.Variable;
        v.text = this.name();
      } else if (t.value == "[") {
        this.advance();
        v.kind = ValueKind.List;
        while (!this.failed && !this.skip("]")) v.items.push(this.value(isConst));
      } else if (t.value == "{") {
        this.advance();
        v.kind = ValueKind.Object;
        while (!this.failed && !this.skip("}")) v.fields.push(this.argument(isConst));
      } else {
        this.unexpected();
      }
      return v;
    }
    if (t.kind == TokenKind.Name) {
      this.advance();
      if (t.value == "true" || t.value == "false") {
        v.kind = ValueKind.Boolean;
        v.boolean = t.value == "true";
      } else if (t.value == "null") {
        v.kind = ValueKind.Null;
      } else {
        v.kind = ValueKind.Enum;
        v.text = t.value;
      }
      return v;
    }
    if (t.kind == TokenKind.End) {
      this.unexpected();
      return v;
    }
    this.advance();
    v.kind = t.kind == TokenKind.Int ? ValueKind.Int : t.kind == TokenKind.Float ? ValueKind.Float : ValueKind.String;
    v.text = t.value;
    return v;
  }
}
