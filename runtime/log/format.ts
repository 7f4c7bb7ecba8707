// Format strings turn a record into text (docs/http.md §8). In a format string:
//
//   {Attr}             the attribute (Message, Request.Method, BlockHeader.<field>, …); absent
//                      ones render empty, TimeStamp as YYYY-MM-DDThh:mm:ss.mmmZ, objects as JSON
//   {Attr:spec}        TimeStamp: a strftime pattern (see strftime.ts), e.g. {TimeStamp:%H:%M:%S};
//                      other attributes: a width, `8` right-aligns, `-8` left-aligns and `08`
//                      zero-pads (numbers only)
//   {?filter:sub}      sub, only for records the filter matches (quote a `:` inside the filter)
//   {?:sub}            sub, only when every attribute sub refers to is present (attributes inside
//                      a nested {?…} do not count; they have their own condition)
//   {Json}             the whole record as JSON
//   {Syslog:variant}   a syslog header: rfc5424, rfc3164, bsd or pri (see syslog.ts)
//   {Escape:chars:sub} sub with a backslash before each of chars; in chars, `\x` stands for x
//                      (so `\:`, `\}`, `\\`), and `\n` `\r` `\t` for those controls, which come
//                      out as `\n` `\r` `\t`
//   {Indent:n:sub}     sub with every line after the first indented by n spaces
//   {FrameDec:sub}     sub prefixed by its length in UTF-8 bytes, in decimal, and a space
//                      (octet-counting framing, RFC 6587)
//   {{  }}             literal braces
//
// A run of k `}` inside n nested sub-formats ends as many of them as it can (at most n) while
// leaving an even number, which are literal braces belonging to the innermost sub-format; so
// `{?:{Message}}` nests and `{FrameDec:{{"m":"{Message}"}}}` frames a braced text.
//
// A format may also be a JSON object: the output is that object as JSON, each string value
// rendered as a format string, each object value recursively. A value that is exactly one
// attribute placeholder (`"{PeerId}"`) keeps the attribute's JSON type and is left out when the
// record lacks it. The default format is the record as JSON.

import { LogError } from './errors.js';
import { parseFilter, type LogFilter } from './filter.js';
import {
  attributeKind, attributeReader, formatTimeStamp, recordToJson, toJson,
  type AttributeKind, type LogRecord,
} from './record.js';
import { compileStrftime } from './strftime.js';
import { SYSLOG_HEADERS } from './syslog.js';

export type LogFormat = (record: LogRecord) => string;

export const JSON_FORMAT: LogFormat = recordToJson;

/** Compiles a format string or object (undefined means JSON); throws LOG_BAD_FORMAT. */
export function parseFormat(format: unknown): LogFormat {
  if (format === undefined) return JSON_FORMAT;
  if (typeof format === 'string') return parseFormatString(format);
  if (isPlainObject(format)) return parseObjectFormat(format, 'format');
  throw new LogError('LOG_BAD_FORMAT', 'format: expected a string or an object');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A piece of a format with the attributes it shows, for `{?:…}`. */
interface Segment {
  readonly render: LogFormat;
  readonly attributes: readonly string[];
}

function parseFormatString(text: string): LogFormat {
  return new FormatParser(text).parse().render;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/y;

class FormatParser {
  private position = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parse(): Segment {
    return this.parseSequence();
  }

  private fail(problem: string, offset = this.position): never {
    throw new LogError('LOG_BAD_FORMAT', `format: ${problem} at offset ${offset}`);
  }

  /** Text and placeholders up to the end, or through the `}` that ends the current sub-format. */
  private parseSequence(): Segment {
    const parts: Segment[] = [];
    let literal = '';
    const flush = () => {
      if (literal) parts.push(literalSegment(literal));
      literal = '';
    };
    const { text } = this;
    while (this.position < text.length) {
      const c = text[this.position];
      if (c === '{' && text[this.position + 1] === '{') {
        literal += '{';
        this.position += 2;
      } else if (c === '{') {
        flush();
        parts.push(this.parsePlaceholder());
      } else if (c === '}') {
        let run = 0;
        while (text[this.position + run] === '}') run++;
        let closes = Math.min(run, this.depth);
        if ((run - closes) % 2 !== 0) closes--;
        if (closes < 0) this.fail("unmatched '}'", this.position + run - 1);
        literal += '}'.repeat((run - closes) / 2);
        this.position += run - closes;
        if (closes > 0) {
          this.position++;
          flush();
          return concatenate(parts);
        }
      } else {
        literal += c;
        this.position++;
      }
    }
    if (this.depth > 0) this.fail("unclosed '{'");
    flush();
    return concatenate(parts);
  }

  private parseSub(): Segment {
    this.depth++;
    const sub = this.parseSequence();
    this.depth--;
    return sub;
  }

  private parsePlaceholder(): Segment {
    const open = this.position++;
    if (this.text[this.position] === '?') {
      this.position++;
      return this.parseConditional();
    }
    NAME.lastIndex = this.position;
    const name = NAME.exec(this.text)?.[0];
    if (!name) this.fail("expected a name or '?' after '{'", open + 1);
    this.position += name.length;
    switch (name) {
      case 'Json':
        this.expect('}');
        return { render: recordToJson, attributes: [] };
      case 'Syslog': {
        this.expect(':');
        const variantStart = this.position;
        const variant = this.readUntilBrace();
        const header = Object.hasOwn(SYSLOG_HEADERS, variant) ? SYSLOG_HEADERS[variant] : undefined;
        if (!header) this.fail(`unknown syslog variant '${variant}'`, variantStart);
        return { render: header, attributes: [] };
      }
      case 'Escape': {
        this.expect(':');
        const chars = this.readEscapeChars();
        return transform(this.parseSub(), (output) => escapeChars(output, chars));
      }
      case 'Indent': {
        this.expect(':');
        const digits = /^\d+/.exec(this.text.slice(this.position))?.[0];
        if (!digits) this.fail('expected a number of spaces after Indent:');
        this.position += digits.length;
        this.expect(':');
        const newline = '\n' + ' '.repeat(Number(digits));
        return transform(this.parseSub(), (output) => output.replace(/\n(?=.)/g, newline));
      }
      case 'FrameDec':
        this.expect(':');
        return transform(this.parseSub(), (output) => `${Buffer.byteLength(output)} ${output}`);
      default:
        return this.parseAttribute(name, open);
    }
  }

  private parseConditional(): Segment {
    const start = this.position;
    let quoted = false;
    for (; this.position < this.text.length; this.position++) {
      const c = this.text[this.position];
      if (quoted && c === '\\') this.position++;
      else if (c === '"') quoted = !quoted;
      else if (!quoted && c === ':') break;
    }
    if (this.position >= this.text.length) this.fail("expected ':' after the condition", start);
    const condition = this.text.slice(start, this.position++);
    const sub = this.parseSub();
    const matches = condition.trim() === '' ? allPresent(sub.attributes) : this.conditionFilter(condition, start);
    return { render: (record) => (matches(record) ? sub.render(record) : ''), attributes: [] };
  }

  private conditionFilter(condition: string, offset: number): LogFilter {
    try {
      return parseFilter(condition);
    } catch (err) {
      if (err instanceof LogError) this.fail(`bad condition (${err.message})`, offset);
      throw err;
    }
  }

  private parseAttribute(name: string, open: number): Segment {
    const kind = attributeKind(name);
    if (kind === undefined) this.fail(`unknown attribute '${name}'`, open + 1);
    let spec: string | undefined;
    if (this.text[this.position] === ':') {
      this.position++;
      spec = this.readUntilBrace();
    } else {
      this.expect('}');
    }
    const render = spec === undefined ? renderDefault : this.specRenderer(kind, spec, open);
    const read = attributeReader(name);
    return { render: (record) => render(read(record)), attributes: [name] };
  }

  private specRenderer(kind: AttributeKind | 'any', spec: string, open: number): (value: unknown) => string {
    if (kind === 'time') {
      const strftime = compileStrftime(spec, 'LOG_BAD_FORMAT');
      return (value) => (value instanceof Date ? strftime(value) : '');
    }
    const width = /^(-|0)?(\d+)$/.exec(spec);
    if (!width || kind === 'object' || (width[1] === '0' && kind !== 'number' && kind !== 'any')) {
      this.fail(`spec '${spec}' does not apply to this attribute`, open);
    }
    const [, alignment, digits] = width;
    return (value) => padded(renderDefault(value), Number(digits), alignment);
  }

  /** Text up to and through the next `}` (specs and variants cannot contain one). */
  private readUntilBrace(): string {
    const end = this.text.indexOf('}', this.position);
    if (end < 0) this.fail("unclosed '{'");
    const value = this.text.slice(this.position, end);
    this.position = end + 1;
    return value;
  }

  private readEscapeChars(): string {
    const start = this.position;
    let chars = '';
    for (; this.position < this.text.length; this.position++) {
      const c = this.text[this.position];
      if (c === ':') break;
      if (c !== '\\') {
        chars += c;
        continue;
      }
      const next = this.text[++this.position];
      if (next === undefined) break;
      chars += CONTROL_NAMES[next] ?? next;
    }
    if (this.position >= this.text.length) this.fail("expected ':' after the characters to escape", start);
    if (!chars) this.fail('no characters to escape', start);
    this.position++;
    return chars;
  }

  private expect(c: string): void {
    if (this.text[this.position] !== c) this.fail(`expected '${c}'`);
    this.position++;
  }
}

const CONTROL_NAMES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };
const ESCAPED_CONTROLS: Readonly<Record<string, string>> = { '\n': 'n', '\r': 'r', '\t': 't' };

function escapeChars(output: string, chars: string): string {
  let escaped = '';
  for (const c of output) escaped += chars.includes(c) ? '\\' + (ESCAPED_CONTROLS[c] ?? c) : c;
  return escaped;
}

function literalSegment(text: string): Segment {
  return { render: () => text, attributes: [] };
}

function concatenate(parts: Segment[]): Segment {
  if (parts.length === 1) return parts[0];
  const renders = parts.map((part) => part.render);
  return {
    render: (record) => renders.map((render) => render(record)).join(''),
    attributes: parts.flatMap((part) => part.attributes),
  };
}

function transform(sub: Segment, change: (output: string) => string): Segment {
  return { render: (record) => change(sub.render(record)), attributes: sub.attributes };
}

function allPresent(attributes: readonly string[]): (record: LogRecord) => boolean {
  const readers = attributes.map(attributeReader);
  return (record) => readers.every((read) => read(record) !== undefined);
}

function renderDefault(value: unknown): string {
  if (value === undefined) return '';
  if (value instanceof Date) return formatTimeStamp(value);
  if (typeof value === 'object') return toJson(value);
  return String(value);
}

function padded(text: string, width: number, alignment: string | undefined): string {
  if (alignment === '-') return text.padEnd(width);
  if (alignment !== '0') return text.padStart(width);
  const sign = text.startsWith('-') ? '-' : '';
  return sign + text.slice(sign.length).padStart(width - sign.length, '0');
}

const SINGLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}$/;

function parseObjectFormat(template: Record<string, unknown>, path: string): LogFormat {
  const build = objectBuilder(template, path);
  return (record) => toJson(build(record));
}

type ObjectBuilder = (record: LogRecord) => Record<string, unknown>;

function objectBuilder(template: Record<string, unknown>, path: string): ObjectBuilder {
  const fields = Object.entries(template).map(([key, value]): [string, (record: LogRecord) => unknown] => {
    const fieldPath = `${path}.${key}`;
    if (isPlainObject(value)) return [key, objectBuilder(value, fieldPath)];
    if (typeof value !== 'string') {
      throw new LogError('LOG_BAD_FORMAT', `${fieldPath}: expected a format string or an object`);
    }
    const attribute = SINGLE_PLACEHOLDER.exec(value)?.[1];
    if (attribute !== undefined && attributeKind(attribute) !== undefined) {
      const read = attributeReader(attribute);
      return [key, (record) => jsonValue(read(record))];
    }
    try {
      return [key, parseFormatString(value)];
    } catch (err) {
      if (err instanceof LogError) throw new LogError('LOG_BAD_FORMAT', `${fieldPath}: ${err.message}`);
      throw err;
    }
  });
  return (record) => {
    const output: Record<string, unknown> = {};
    for (const [key, value] of fields) output[key] = value(record);
    return output;
  };
}

function jsonValue(value: unknown): unknown {
  return value instanceof Date ? formatTimeStamp(value) : value;
}
