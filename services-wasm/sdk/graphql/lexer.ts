// GraphQL lexical tokens (GraphQL spec, October 2021, §2.1): punctuators, names, numbers and
// strings (block strings with their indentation removed); whitespace, commas and comments are
// ignored. A lexical error is reported in `error` and ends the token stream.

import { hexDigitValue } from "../hex";

export enum TokenKind {
  End,
  Punctuator,
  Name,
  Int,
  Float,
  String,
  BlockString,
}

export class Token {
  constructor(
    public kind: TokenKind = TokenKind.End,
    /** A punctuator or name as written; a number's text; a string's value. */
    public value: string = "",
    /** Where the token begins in the source (a UTF-16 offset, for error locations). */
    public start: i32 = 0,
  ) {}
}

function isNameStart(c: i32): bool {
  return c == 0x5f || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

function isNameContinue(c: i32): bool {
  return isNameStart(c) || isDigit(c);
}

function leadingWhitespace(line: string): i32 {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) == 0x20 || line.charCodeAt(i) == 0x09)) i++;
  return i;
}

function isWhitespaceOnly(line: string): bool {
  return leadingWhitespace(line) == line.length;
}

/** A block string's value (spec §2.9.5 BlockStringValue): common indentation and blank edge lines removed. */
function blockStringValue(raw: string): string {
  const lines = raw.replaceAll("\r\n", "\n").replaceAll("\r", "\n").split("\n");
  let common = -1;
  for (let i = 1; i < lines.length; i++) {
    const indent = leadingWhitespace(lines[i]);
    if (indent < lines[i].length && (common < 0 || indent < common)) common = indent;
  }
  if (common > 0) for (let i = 1; i < lines.length; i++) lines[i] = lines[i].length > common ? lines[i].substring(common) : "";
  let first = 0;
  let last = lines.length;
  while (first < last && isWhitespaceOnly(lines[first])) first++;
  while (last > first && isWhitespaceOnly(lines[last - 1])) last--;
  return lines.slice(first, last).join("\n");
}

export class Lexer {
  private pos: i32 = 0;
  /** The first lexical error, or "" while there is none. */
  error: string = "";

  constructor(private source: string) {
    if (source.length > 0 && source.charCodeAt(0) == 0xfeff) this.pos = 1;
  }

  private fail(message: string): Token {
    if (this.error.length == 0) this.error = message;
    this.pos = this.source.length;
    return new Token(TokenKind.End, "");
  }

  private code(at: i32): i32 {
    return at < this.source.length ? this.source.charCodeAt(at) : -1;
  }

  private skipIgnored(): void {
    const s = this.source;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d || c == 0x2c || c == 0xfeff) {
        this.pos++;
      } else if (c == 0x23) {
        while (this.pos < s.length && s.charCodeAt(this.pos) != 0x0a && s.charCodeAt(this.pos) != 0x0d) this.pos++;
      } else {
        return;
      }
    }
  }

  /** The next token; End at the end of the source or after an error. */
  next(): Token {
    this.skipIgnored();
    const start = this.pos;
    const token = this.scan(start);
    token.start = start;
    return token;
  }

  private scan(start: i32): Token {
    const c = this.code(start);
    if (c < 0) return new Token(TokenKind.End, "");
    if (c == 0x2e) {
      if (this.code(start + 1) == 0x2e && this.code(start + 2) == 0x2e) {
        this.pos += 3;
        return new Token(TokenKind.Punctuator, "...");
      }
      return this.fail("Unexpected character: \".\".");
    }
    // ! $ & ( ) : = @ [ ] { | }
    if (c == 0x21 || c == 0x24 || c == 0x26 || c == 0x28 || c == 0x29 || c == 0x3a || c == 0x3d || c == 0x40
      || c == 0x5b || c == 0x5d || c == 0x7b || c == 0x7c || c == 0x7d) {
      this.pos++;
      return new Token(TokenKind.Punctuator, String.fromCharCode(c));
    }
    if (isNameStart(c)) {
      let end = start + 1;
      while (isNameContinue(this.code(end))) end++;
      this.pos = end;
      return new Token(TokenKind.Name, this.source.substring(start, end));
    }
    if (c == 0x2d || isDigit(c)) return this.number(start);
    if (c == 0x22) {
      if (this.code(start + 1) == 0x22 && this.code(start + 2) == 0x22) return this.blockString(start);
      return this.string(start);
    }
    return this.fail("Unexpected character: " + quoted(String.fromCharCode(c)) + ".");
  }

  private digits(at: i32): i32 {
    if (!isDigit(this.code(at))) return -1;
    while (isDigit(this.code(at))) at++;
    return at;
  }

  private number(start: i32): Token {
    let at = start;
    if (this.code(at) == 0x2d) at++;
    if (this.code(at) == 0x30) {
      at++;
      if (isDigit(this.code(at))) return this.fail("Invalid number, unexpected digit after 0.");
    } else {
      at = this.digits(at);
      if (at < 0) return this.fail("Invalid number, expected digit.");
    }
    let float = false;
    if (this.code(at) == 0x2e) {
      float = true;
      at = this.digits(at + 1);
      if (at < 0) return this.fail("Invalid number, expected digit.");
    }
    if (this.code(at) == 0x45 || this.code(at) == 0x65) {
      float = true;
      at++;
      if (this.code(at) == 0x2b || this.code(at) == 0x2d) at++;
      at = this.digits(at);
      if (at < 0) return this.fail("Invalid number, expected digit.");
    }
    const after = this.code(at);
    if (after == 0x2e || isNameStart(after)) return this.fail("Invalid number, expected digit.");
    this.pos = at;
    return new Token(float ? TokenKind.Float : TokenKind.Int, this.source.substring(start, at));
  }

  private string(start: i32): Token {
    const s = this.source;
    let at = start + 1;
    let value = "";
    let chunk = at;
    while (at < s.length) {
      const c = s.charCodeAt(at);
      if (c == 0x22) {
        this.pos = at + 1;
        return new Token(TokenKind.String, value + s.substring(chunk, at));
      }
      if (c == 0x0a || c == 0x0d) break;
      if (c < 0x20 && c != 0x09) return this.fail("Invalid character within String.");
      if (c != 0x5c) {
        at++;
        continue;
      }
      value += s.substring(chunk, at);
      const e = this.code(at + 1);
      let length = 2;
      if (e == 0x22) value += "\"";
      else if (e == 0x5c) value += "\\";
      else if (e == 0x2f) value += "/";
      else if (e == 0x62) value += "\b";
      else if (e == 0x66) value += "\f";
      else if (e == 0x6e) value += "\n";
      else if (e == 0x72) value += "\r";
      else if (e == 0x74) value += "\t";
      else if (e == 0x75) {
        const unicode = this.unicodeEscape(at);
        if (unicode < 0) return this.fail("Invalid Unicode escape sequence.");
        value += String.fromCodePoint(unicode >> 8);
        length = unicode & 0xff;
      } else {
        return this.fail("Invalid character escape sequence.");
      }
      at += length;
      chunk = at;
    }
    return this.fail("Unterminated string.");
  }

  /** `\uXXXX` (a surrogate pair as two) or `\u{X…}` at `at`: code point << 8 | escape length; -1 if invalid. */
  private unicodeEscape(at: i32): i32 {
    if (this.code(at + 2) == 0x7b) {
      let point = 0;
      let i = at + 3;
      while (this.code(i) != 0x7d) {
        const h = hexDigitValue(this.code(i));
        if (h < 0 || point > 0x10ffff) return -1;
        point = point * 16 + h;
        i++;
      }
      if (i == at + 3 || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return -1;
      return (point << 8) | (i + 1 - at);
    }
    const high = this.fourHex(at + 2);
    if (high < 0) return -1;
    if (high >= 0xd800 && high <= 0xdbff) {
      const low = this.code(at + 6) == 0x5c && this.code(at + 7) == 0x75 ? this.fourHex(at + 8) : -1;
      if (low < 0xdc00 || low > 0xdfff) return -1;
      return ((0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)) << 8) | 12;
    }
    if (high >= 0xdc00 && high <= 0xdfff) return -1;
    return (high << 8) | 6;
  }

  private fourHex(at: i32): i32 {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      const h = hexDigitValue(this.code(at + i));
      if (h < 0) return -1;
      v = v * 16 + h;
    }
    return v;
  }

  private blockString(start: i32): Token {
    const s = this.source;
    let at = start + 3;
    let raw = "";
    let chunk = at;
    while (at < s.length) {
      const c = s.charCodeAt(at);
      if (c == 0x22 && this.code(at + 1) == 0x22 && this.code(at + 2) == 0x22) {
        this.pos = at + 3;
        return new Token(TokenKind.BlockString, blockStringValue(raw + s.substring(chunk, at)));
      }
      if (c < 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) return this.fail("Invalid character within String.");
      if (c == 0x5c && this.code(at + 1) == 0x22 && this.code(at + 2) == 0x22 && this.code(at + 3) == 0x22) {
        raw += s.substring(chunk, at) + "\"\"\"";
        at += 4;
        chunk = at;
        continue;
      }
      at++;
    }
    return this.fail("Unterminated string.");
  }
}

/** `text` in double quotes (for error messages). */
function quoted(text: string): string {
  return "\"" + text + "\"";
}
