// Filter expressions (docs/http.md §8):
//
//   expr       := and-expr ('or' and-expr)*
//   and-expr   := unary ('and' unary)*
//   unary      := 'not' unary | '(' expr ')' | ATTR [op VALUE]
//   op         := '=' | '!=' | '<' | '>' | '<=' | '>='
//   VALUE      := bare word | "quoted string" (\" and \\ escape inside quotes)
//
// Keywords are case-insensitive. `ATTR` alone is true when the record has the attribute.
// Comparisons follow the attribute's kind: severities by rank (debug < … < critical), numbers
// numerically, TimeStamp against an ISO 8601 date-time (UTC unless it names a zone), other text
// by code units. A comparison with an attribute the record lacks is false, whatever the operator.
// An empty expression matches every record.
//
// Each filter also answers mayMatch(severity, channel) without a record, so callers can skip
// building records no logger would take: the expression is evaluated in three-valued (Kleene)
// logic over a record of which only Severity and Channel are known, every other predicate being
// unknown. False then means false for every such record; unknown counts as true.

import { LogError } from './errors.js';
import { parseIsoDateTime } from './iso-time.js';
import {
  CHANNELS, SEVERITIES, attributeKind, attributeReader, severityRank,
  type AttributeKind, type Channel, type LogRecord, type Severity,
} from './record.js';

export interface LogFilter {
  (record: LogRecord): boolean;
  /** False only when no record of this severity and channel can pass; true when one may. */
  mayMatch(severity: Severity, channel: Channel): boolean;
}

export const MATCH_ALL: LogFilter = Object.assign(() => true, { mayMatch: () => true });

/** A compiled (sub)expression: its test, and its value when only Severity and Channel are known. */
interface Compiled {
  readonly test: (record: LogRecord) => boolean;
  /** Undefined when the value depends on attributes other than Severity and Channel. */
  readonly partial: (known: LogRecord) => boolean | undefined;
}

function either(left: Compiled, right: Compiled): Compiled {
  return {
    test: (record) => left.test(record) || right.test(record),
    partial: (known) => {
      const [a, b] = [left.partial(known), right.partial(known)];
      return a === true || b === true ? true : a === false && b === false ? false : undefined;
    },
  };
}

function both(left: Compiled, right: Compiled): Compiled {
  return {
    test: (record) => left.test(record) && right.test(record),
    partial: (known) => {
      const [a, b] = [left.partial(known), right.partial(known)];
      return a === false || b === false ? false : a === true && b === true ? true : undefined;
    },
  };
}

function negation(operand: Compiled): Compiled {
  return {
    test: (record) => !operand.test(record),
    partial: (known) => {
      const value = operand.partial(known);
      return value === undefined ? undefined : !value;
    },
  };
}

type Operator = '=' | '!=' | '<' | '>' | '<=' | '>=';

type Token =
  | { kind: 'word'; text: string; offset: number }
  | { kind: 'string'; text: string; offset: number }
  | { kind: 'operator'; text: Operator; offset: number }
  | { kind: 'open' | 'close'; text: string; offset: number };

const ATTRIBUTE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const BARE_WORD = /[^\s()"=!<>]+/y;
const OPERATOR = /!=|<=|>=|=|<|>/y;

/** Compiles a filter expression; throws LOG_BAD_FILTER naming the offset of the problem. */
export function parseFilter(text: string): LogFilter {
  const tokens = tokenize(text);
  if (tokens.length === 0) return MATCH_ALL;
  const { test, partial } = new FilterParser(text, tokens).parse();
  // Severity and Channel alone decide mayMatch, which is asked per request and per transaction:
  // its few answers are worked out once here.
  const answers = new Map(SEVERITIES.map((severity) => [
    severity, new Map(CHANNELS.map((channel) => [channel, partial({ Severity: severity, Channel: channel }) !== false])),
  ]));
  return Object.assign(test, {
    mayMatch: (severity: Severity, channel: Channel) => answers.get(severity)?.get(channel) !== false,
  });
}

function fail(problem: string, offset: number): never {
  throw new LogError('LOG_BAD_FILTER', `filter: ${problem} at offset ${offset}`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close', text: c, offset: i });
      i++;
    } else if (c === '"') {
      const { value, end } = readQuoted(text, i);
      tokens.push({ kind: 'string', text: value, offset: i });
      i = end;
    } else {
      OPERATOR.lastIndex = i;
      const op = OPERATOR.exec(text);
      if (op) {
        tokens.push({ kind: 'operator', text: op[0] as Operator, offset: i });
        i += op[0].length;
        continue;
      }
      BARE_WORD.lastIndex = i;
      const word = BARE_WORD.exec(text);
      if (!word) fail(`unexpected '${c}'`, i);
      tokens.push({ kind: 'word', text: word[0], offset: i });
      i += word[0].length;
    }
  }
  return tokens;
}

function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return { value, end: i + 1 };
    if (c === '\\' && i + 1 < text.length) value += text[++i];
    else value += c;
  }
  fail('unterminated quoted string', start);
}

function isKeyword(token: Token | undefined, keyword: string): boolean {
  return token?.kind === 'word' && token.text.toLowerCase() === keyword;
}

class FilterParser {
  private position = 0;

  constructor(private readonly text: string, private readonly tokens: Token[]) {}

  parse(): Compiled {
    const filter = this.parseOr();
    const extra = this.tokens[this.position];
    if (extra) fail(`unexpected '${extra.text}'`, extra.offset);
    return filter;
  }

  private parseOr(): Compiled {
    return this.parseJoined('or', () => this.parseAnd(), either);
  }

  private parseAnd(): Compiled {
    return this.parseJoined('and', () => this.parseUnary(), both);
  }

  /** `operand (keyword operand)*`, combined left to right with `join`. */
  private parseJoined(keyword: string, operand: () => Compiled, join: (left: Compiled, right: Compiled) => Compiled): Compiled {
    let filter = operand();
    while (isKeyword(this.peek(), keyword)) {
      this.position++;
      filter = join(filter, operand());
    }
    return filter;
  }

  private parseUnary(): Compiled {
    const token = this.next('an attribute, \'not\' or \'(\'');
    if (isKeyword(token, 'not')) return negation(this.parseUnary());
    if (token.kind === 'open') {
      const inner = this.parseOr();
      const close = this.next('\')\'');
      if (close.kind !== 'close') fail(`expected ')' but found '${close.text}'`, close.offset);
      return inner;
    }
    if (token.kind !== 'word' || isKeyword(token, 'and') || isKeyword(token, 'or')) {
      fail(`expected an attribute but found '${token.text}'`, token.offset);
    }
    return this.parsePredicate(token);
  }

  private parsePredicate(name: Token): Compiled {
    const test = this.predicateTest(name);
    // The known record has exactly Severity and Channel, so the test itself decides those.
    const decided = name.text === 'Severity' || name.text === 'Channel';
    return { test, partial: decided ? test : () => undefined };
  }

  private predicateTest(name: Token): (record: LogRecord) => boolean {
    const kind = ATTRIBUTE_PATH.test(name.text) ? attributeKind(name.text) : undefined;
    if (kind === undefined) fail(`unknown attribute '${name.text}'`, name.offset);
    const path = name.text;
    const read = attributeReader(path);
    const op = this.peek();
    if (op?.kind !== 'operator') return (record) => read(record) !== undefined;
    this.position++;
    const value = this.next(`a value after '${op.text}'`);
    if (value.kind !== 'word' && value.kind !== 'string') {
      fail(`expected a value after '${op.text}' but found '${value.text}'`, value.offset);
    }
    const compare = comparator(kind, value.text, path, value.offset);
    const test = OPERATOR_TESTS[op.text as Operator];
    return (record) => {
      const actual = read(record);
      if (actual === undefined) return false;
      const order = compare(actual);
      return order !== undefined && test(order);
    };
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private next(expected: string): Token {
    const token = this.tokens[this.position++];
    if (!token) fail(`expected ${expected}`, this.text.length);
    return token;
  }
}

const OPERATOR_TESTS: Readonly<Record<Operator, (order: number) => boolean>> = {
  '=': (order) => order === 0,
  '!=': (order) => order !== 0,
  '<': (order) => order < 0,
  '>': (order) => order > 0,
  '<=': (order) => order <= 0,
  '>=': (order) => order >= 0,
};

/** Orders an attribute's value against the literal; undefined when they cannot be compared. */
type Comparator = (actual: unknown) => number | undefined;

function sign<T extends number | bigint | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The literal as a finite number, or undefined when it is not one. */
function numberLiteral(literal: string): number | undefined {
  const number = Number(literal);
  return literal.trim() !== '' && Number.isFinite(number) ? number : undefined;
}

function comparator(kind: AttributeKind | 'any', literal: string, path: string, offset: number): Comparator {
  switch (kind) {
    case 'severity': {
      if (!(SEVERITIES as readonly string[]).includes(literal)) fail(`unknown severity '${literal}'`, offset);
      const rank = severityRank(literal as Severity);
      return (actual) => sign(severityRank(actual as Severity), rank);
    }
    case 'channel':
      if (!(CHANNELS as readonly string[]).includes(literal)) fail(`unknown channel '${literal}'`, offset);
      return (actual) => sign(actual as string, literal);
    case 'number': {
      const number = numberLiteral(literal);
      if (number === undefined) fail(`${path} compares with a number, not '${literal}'`, offset);
      return (actual) => sign(actual as number, number);
    }
    case 'time': {
      const time = parseIsoDateTime(literal);
      if (time === undefined) fail(`${path} compares with an ISO 8601 date-time, not '${literal}'`, offset);
      return (actual) => sign((actual as Date).getTime(), time);
    }
    case 'string':
      return (actual) => sign(actual as string, literal);
    case 'object':
      fail(`${path} is an object; it can only be tested for presence`, offset);
    case 'any': {
      const number = numberLiteral(literal);
      const integer = /^-?\d+$/.test(literal) ? BigInt(literal) : undefined;
      return (actual) => {
        if (typeof actual === 'number' && number !== undefined) return sign(actual, number);
        if (typeof actual === 'bigint' && integer !== undefined) return sign(actual, integer);
        if (typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean') {
          return sign(String(actual), literal);
        }
        return undefined;
      };
    }
  }
}
