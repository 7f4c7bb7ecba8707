// Tokens of an event query condition (an SQL WHERE expression): names, "quoted names",
// 'strings' ('' inside for a quote), numbers, `?` placeholders, operators and parentheses.
// Positions are 1-based character offsets into the condition, for error messages.

export enum TokenKind {
  End,
  Name,
  QuotedName,
  String,
  Number,
  Placeholder,
  Operator,
  Invalid,
}

export class Token {
  constructor(public kind: TokenKind, public text: string, public position: i32) {}

  /** A keyword (an unquoted name, any case). */
  is(keyword: string): bool {
    return this.kind == TokenKind.Name && this.text.toUpperCase() == keyword;
  }

  isOperator(op: string): bool {
    return this.kind == TokenKind.Operator && this.text == op;
  }

  describe(): string {
    if (this.kind == TokenKind.End) return "the end of the condition";
    if (this.kind == TokenKind.String) return "'" + this.text + "'";
    return "\"" + this.text + "\"";
  }
}

export function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

function isNameStart(c: i32): bool {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f;
}

/** Two-character operators first, so `<=` is not read as `<`. */
const OPERATORS = ["<=", ">=", "<>", "!=", "==", "=", "<", ">", "(", ")", ",", "-"];

export function tokenize(text: string): Array<Token> {
  const tokens = new Array<Token>();
  let pos = 0;
  while (true) {
    while (pos < text.length && (text.charCodeAt(pos) == 0x20 || text.charCodeAt(pos) == 0x09 || text.charCodeAt(pos) == 0x0a || text.charCodeAt(pos) == 0x0d)) pos++;
    const start = pos;
    if (pos >= text.length) break;
    const c = text.charCodeAt(pos);
    if (c == 0x27 || c == 0x22) {
      // 'string' or "name": the quote doubled stands for itself.
      let value = "";
      pos++;
      let closed = false;
      while (pos < text.length) {
        const d = text.charCodeAt(pos);
        if (d == c) {
          if (pos + 1 < text.length && text.charCodeAt(pos + 1) == c) {
            value += String.fromCharCode(c);
            pos += 2;
            continue;
          }
          pos++;
          closed = true;
          break;
        }
        value += String.fromCharCode(d);
        pos++;
      }
      if (!closed) {
        tokens.push(new Token(TokenKind.Invalid, c == 0x27 ? "unterminated string" : "unterminated quoted name", start + 1));
        return tokens;
      }
      tokens.push(new Token(c == 0x27 ? TokenKind.String : TokenKind.QuotedName, value, start + 1));
    } else if (isNameStart(c)) {
      while (pos < text.length && (isNameStart(text.charCodeAt(pos)) || isDigit(text.charCodeAt(pos)))) pos++;
      tokens.push(new Token(TokenKind.Name, text.substring(start, pos), start + 1));
    } else if (isDigit(c) || (c == 0x2e && pos + 1 < text.length && isDigit(text.charCodeAt(pos + 1)))) {
      while (pos < text.length && isDigit(text.charCodeAt(pos))) pos++;
      if (pos < text.length && text.charCodeAt(pos) == 0x2e) {
        pos++;
        while (pos < text.length && isDigit(text.charCodeAt(pos))) pos++;
      }
      if (pos < text.length && (text.charCodeAt(pos) | 0x20) == 0x65) {
        let e = pos + 1;
        if (e < text.length && (text.charCodeAt(e) == 0x2b || text.charCodeAt(e) == 0x2d)) e++;
        if (e < text.length && isDigit(text.charCodeAt(e))) {
          pos = e;
          while (pos < text.length && isDigit(text.charCodeAt(pos))) pos++;
        }
      }
      tokens.push(new Token(TokenKind.Number, text.substring(start, pos), start + 1));
    } else if (c == 0x3f) {
      pos++;
      tokens.push(new Token(TokenKind.Placeholder, "?", start + 1));
    } else {
      let op = "";
      for (let i = 0; i < OPERATORS.length && op.length == 0; i++) {
        if (text.startsWith(OPERATORS[i], pos)) op = OPERATORS[i];
      }
      if (op.length == 0) {
        tokens.push(new Token(TokenKind.Invalid, "unexpected character '" + String.fromCharCode(c) + "'", start + 1));
        return tokens;
      }
      pos += op.length;
      tokens.push(new Token(TokenKind.Operator, op, start + 1));
    }
  }
  tokens.push(new Token(TokenKind.End, "", text.length + 1));
  return tokens;
}
