// The grammar of event query conditions (a subset of SQLite's WHERE expressions):
//   or      := and (OR and)*
//   and     := not (AND not)*
//   not     := NOT not | test
//   test    := operand [ (= | == | != | <> | < | <= | > | >=) operand
//                      | [NOT] LIKE operand [ESCAPE operand]
//                      | IS [NOT] NULL
//                      | [NOT] IN ( operand (, operand)* ) ]
//   operand := 'text' | [-]number | NULL | TRUE | FALSE | ? | name | "name" | ( or )
// Names are the event's fields (any case; "quoted" for keywords and exact spelling); `?` are
// placeholders, numbered in order.

import { Token, TokenKind, tokenize } from "./lexer";
import { numberOf, SqlValue } from "./value";

export enum NodeKind {
  Literal,
  Placeholder,
  Column,
  Not,
  And,
  Or,
  Compare,
  Like,
  IsNull,
  In,
}

export class SqlNode {
  kind: NodeKind = NodeKind.Literal;
  value: SqlValue = SqlValue.null();
  /** Placeholder number or column index. */
  index: i32 = 0;
  /** Compare: the operator. */
  op: string = "";
  /** NOT LIKE, IS NOT NULL, NOT IN. */
  negated: bool = false;
  /** Operands: Not/IsNull (1), And/Or/Compare (2), Like (2 or 3 with ESCAPE), In (1 + the list). */
  operands: Array<SqlNode> = [];
}

const KEYWORDS = ["AND", "OR", "NOT", "LIKE", "ESCAPE", "IS", "NULL", "IN", "TRUE", "FALSE"];

export class Condition {
  /** null: no condition (every event). */
  root: SqlNode | null = null;
  placeholders: i32 = 0;
  /** Per column: whether the condition reads it. */
  reads: Array<bool> = [];
  /** "" when the condition parsed. */
  error: string = "";
}

class Parser {
  private tokens: Array<Token>;
  private at: i32 = 0;
  placeholders: i32 = 0;
  reads: Array<bool>;
  error: string = "";

  constructor(text: string, private columns: Array<string>) {
    this.tokens = tokenize(text);
    this.reads = new Array<bool>(columns.length);
  }

  get token(): Token {
    return this.tokens[this.at];
  }

  private fail(message: string): SqlNode {
    if (this.error.length == 0) this.error = message;
    return new SqlNode();
  }

  private syntax(expected: string): SqlNode {
    const t = this.token;
    if (t.kind == TokenKind.Invalid) return this.fail("syntax error at position " + t.position.toString() + ": " + t.text);
    return this.fail("syntax error at position " + t.position.toString() + ": expected " + expected + ", found " + t.describe());
  }

  private node(kind: NodeKind, operands: Array<SqlNode>): SqlNode {
    const n = new SqlNode();
    n.kind = kind;
    n.operands = operands;
    return n;
  }

  private keyword(word: string): bool {
    if (!this.token.is(word)) return false;
    this.at++;
    return true;
  }

  private operator(op: string): bool {
    if (!this.token.isOperator(op)) return false;
    this.at++;
    return true;
  }

  private get failed(): bool {
    return this.error.length > 0;
  }

  whole(): SqlNode | null {
    if (this.token.kind == TokenKind.End) return null;
    const root = this.or();
    if (!this.failed && this.token.kind != TokenKind.End) this.syntax("AND, OR or the end of the condition");
    return root;
  }

  private or(): SqlNode {
    let left = this.and();
    while (!this.failed && this.keyword("OR")) left = this.node(NodeKind.Or, [left, this.and()]);
    return left;
  }

  private and(): SqlNode {
    let left = this.not();
    while (!this.failed && this.keyword("AND")) left = this.node(NodeKind.And, [left, this.not()]);
    return left;
  }

  private not(): SqlNode {
    if (this.keyword("NOT")) return this.node(NodeKind.Not, [this.not()]);
    return this.test();
  }

  private test(): SqlNode {
    const left = this.operand();
    if (this.failed) return left;
    const t = this.token;
    if (t.kind == TokenKind.Operator && ["=", "==", "!=", "<>", "<", "<=", ">", ">="].includes(t.text)) {
      this.at++;
      const n = this.node(NodeKind.Compare, [left, this.operand()]);
      n.op = t.text == "==" ? "=" : t.text == "<>" ? "!=" : t.text;
      return n;
    }
    if (this.keyword("IS")) {
      const n = this.node(NodeKind.IsNull, [left]);
      n.negated = this.keyword("NOT");
      if (!this.keyword("NULL")) return this.syntax("NULL");
      return n;
    }
    const negated = this.keyword("NOT");
    if (this.keyword("LIKE")) {
      const n = this.node(NodeKind.Like, [left, this.operand()]);
      n.negated = negated;
      if (this.keyword("ESCAPE")) n.operands.push(this.operand());
      return n;
    }
    if (this.keyword("IN")) {
      const n = this.node(NodeKind.In, [left]);
      n.negated = negated;
      if (!this.operator("(")) return this.syntax("(");
      do n.operands.push(this.operand());
      while (!this.failed && this.operator(","));
      if (!this.failed && !this.operator(")")) return this.syntax(", or )");
      return n;
    }
    if (negated) return this.syntax("LIKE or IN after NOT");
    return left;
  }

  private literal(value: SqlValue): SqlNode {
    this.at++;
    const n = new SqlNode();
    n.value = value;
    return n;
  }

  private operand(): SqlNode {
    const t = this.token;
    if (t.kind == TokenKind.String) return this.literal(SqlValue.text(t.text));
    if (t.kind == TokenKind.Number) return this.literal(numberOf(t.text)!);
    if (t.isOperator("-") && this.tokens[this.at + 1].kind == TokenKind.Number) {
      this.at++;
      return this.literal(numberOf("-" + this.token.text)!);
    }
    if (t.is("NULL")) return this.literal(SqlValue.null());
    if (t.is("TRUE") || t.is("FALSE")) return this.literal(SqlValue.bool(t.is("TRUE")));
    if (t.kind == TokenKind.Placeholder) {
      this.at++;
      const n = new SqlNode();
      n.kind = NodeKind.Placeholder;
      n.index = this.placeholders++;
      return n;
    }
    if (t.kind == TokenKind.QuotedName || (t.kind == TokenKind.Name && !KEYWORDS.includes(t.text.toUpperCase()))) {
      this.at++;
      return this.column(t);
    }
    if (this.operator("(")) {
      const inner = this.or();
      if (!this.failed && !this.operator(")")) return this.syntax(")");
      return inner;
    }
    return this.syntax("a value, a column name, ? or (");
  }

  /** The column named by `t`: exactly as spelled, else the first spelled alike in any case. */
  private column(t: Token): SqlNode {
    let index = this.columns.indexOf(t.text);
    if (index < 0 && t.kind == TokenKind.Name) {
      const upper = t.text.toUpperCase();
      for (let i = 0; i < this.columns.length && index < 0; i++) if (this.columns[i].toUpperCase() == upper) index = i;
    }
    if (index < 0) return this.fail("unknown column \"" + t.text + "\" at position " + t.position.toString() + " (columns: " + this.columns.join(", ") + ")");
    this.reads[index] = true;
    const n = new SqlNode();
    n.kind = NodeKind.Column;
    n.index = index;
    return n;
  }
}

/** Parses a condition on events with fields `columns`; check `error`. */
export function parseCondition(text: string, columns: Array<string>): Condition {
  const parser = new Parser(text, columns);
  const condition = new Condition();
  condition.root = parser.whole();
  condition.placeholders = parser.placeholders;
  condition.reads = parser.reads;
  condition.error = parser.error;
  return condition;
}
