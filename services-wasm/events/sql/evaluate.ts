// Evaluating a parsed condition on one event, with SQL's three-valued logic: comparisons with
// NULL are NULL, NOT NULL is NULL, FALSE AND NULL is FALSE, TRUE OR NULL is TRUE; an event is
// kept when the condition is true. LIKE matches text (numbers as their decimal text) with `%`
// (any run of characters) and `_` (one character), ASCII letters in either case, as SQLite does;
// ESCAPE names the character that makes the next `%`, `_` or itself literal.

import { NodeKind, SqlNode } from "./parser";
import { compareValues, SqlValue } from "./value";

/** Code points of a text, so `_` matches one character, not one UTF-16 unit. */
function codePoints(text: string): Array<i32> {
  const out = new Array<i32>();
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i);
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}

function foldAscii(c: i32): i32 {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Whether `text` matches the LIKE `pattern`; `escape` is -1 for none. */
export function like(text: string, pattern: string, escape: i32): bool {
  const s = codePoints(text);
  const p = codePoints(pattern);
  let si = 0;
  let pi = 0;
  // Where the last % was and the text position it is being tried at (backtracking).
  let starP = -1;
  let starS = 0;
  while (si < s.length) {
    if (pi < p.length) {
      const c = p[pi];
      if (c == escape && pi + 1 < p.length) {
        if (foldAscii(p[pi + 1]) == foldAscii(s[si])) {
          pi += 2;
          si++;
          continue;
        }
      } else if (c == 0x25) {
        starP = pi++;
        starS = si;
        continue;
      } else if (c == 0x5f || foldAscii(c) == foldAscii(s[si])) {
        pi++;
        si++;
        continue;
      }
    }
    if (starP < 0) return false;
    pi = starP + 1;
    si = ++starS;
  }
  while (pi < p.length && p[pi] == 0x25 && p[pi] != escape) pi++;
  return pi == p.length;
}

export class Evaluation {
  /** A run-time error (a bad ESCAPE); "" while there is none. */
  error: string = "";

  constructor(private params: Array<SqlValue>) {}

  /** The condition's value for an event whose column values are `columns`. */
  value(n: SqlNode, columns: Array<SqlValue>): SqlValue {
    if (n.kind == NodeKind.Literal) return n.value;
    if (n.kind == NodeKind.Placeholder) return this.params[n.index];
    if (n.kind == NodeKind.Column) return columns[n.index];
    if (n.kind == NodeKind.Not) {
      const v = this.value(n.operands[0], columns);
      return v.isNull ? v : SqlValue.bool(!v.isTrue());
    }
    if (n.kind == NodeKind.And || n.kind == NodeKind.Or) {
      const a = this.value(n.operands[0], columns);
      const b = this.value(n.operands[1], columns);
      // The value that decides (FALSE for AND, TRUE for OR) wins over NULL.
      const decisive = n.kind == NodeKind.Or;
      if ((!a.isNull && a.isTrue() == decisive) || (!b.isNull && b.isTrue() == decisive)) return SqlValue.bool(decisive);
      if (a.isNull || b.isNull) return SqlValue.null();
      return SqlValue.bool(!decisive);
    }
    if (n.kind == NodeKind.IsNull) return SqlValue.bool(this.value(n.operands[0], columns).isNull != n.negated);
    if (n.kind == NodeKind.Compare) {
      const a = this.value(n.operands[0], columns);
      const b = this.value(n.operands[1], columns);
      if (a.isNull || b.isNull) return SqlValue.null();
      const c = compareValues(a, b);
      const op = n.op;
      return SqlValue.bool(op == "=" ? c == 0 : op == "!=" ? c != 0 : op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0);
    }
    if (n.kind == NodeKind.Like) return this.like(n, columns);
    return this.in(n, columns);
  }

  private like(n: SqlNode, columns: Array<SqlValue>): SqlValue {
    const text = this.value(n.operands[0], columns);
    const pattern = this.value(n.operands[1], columns);
    let escape: i32 = -1;
    if (n.operands.length > 2) {
      const e = this.value(n.operands[2], columns);
      if (e.isNull) return e;
      const chars = codePoints(e.toText());
      if (chars.length != 1) {
        if (this.error.length == 0) this.error = "the ESCAPE expression must be a single character";
        return SqlValue.null();
      }
      escape = chars[0];
    }
    if (text.isNull || pattern.isNull) return SqlValue.null();
    return SqlValue.bool(like(text.toText(), pattern.toText(), escape) != n.negated);
  }

  private in(n: SqlNode, columns: Array<SqlValue>): SqlValue {
    const v = this.value(n.operands[0], columns);
    if (v.isNull) return v;
    let sawNull = false;
    for (let i = 1; i < n.operands.length; i++) {
      const item = this.value(n.operands[i], columns);
      if (item.isNull) sawNull = true;
      else if (compareValues(v, item) == 0) return SqlValue.bool(!n.negated);
    }
    return sawNull ? SqlValue.null() : SqlValue.bool(n.negated);
  }
}
