import { TsibaseError } from '../errors.js';

// The `tsibase.lines` custom section of a service module (docs/host-abi.md §10.2): which source
// line each stretch of the module's code came from, so that a trap names its file and line.
// `tsibase build` writes it from the compiler's source map, admission moves its offsets with the
// code it meters, and the engine reads it when a service traps. Layout (LEB128 u32 numbers,
// names as a length and UTF-8):
//
//   file count, file names
//   entry count, entries in offset order: the offset's delta from the previous entry's, then
//   2 × zigzag(the line's delta from the previous entry's) + 1 if the file changes, then the
//   new file's index when it does
//   function count, functions: file, first line, last line − first line, name
//
// An offset is a byte offset from the start of the module; an entry holds from its offset up to
// the next entry's. Before the first entry the file is 0 and the line 0. Deltas, not values: most
// entries then take three bytes. The functions are those of the source, by their lines: a line
// belongs to the innermost function whose lines hold it, wherever the compiler put its code.

export const LINE_TABLE_SECTION = 'tsibase.lines';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8_ENCODER = new TextEncoder();

export interface LineEntry {
  readonly offset: number;
  /** The index in `files`. */
  readonly file: number;
  /** 1-based. */
  readonly line: number;
}

export interface SourceFunction {
  /** The index in `files`. */
  readonly file: number;
  readonly firstLine: number;
  readonly lastLine: number;
  readonly name: string;
}

export interface LineTable {
  readonly files: readonly string[];
  readonly entries: readonly LineEntry[];
  readonly functions: readonly SourceFunction[];
}

export interface SourceLine {
  readonly file: string;
  readonly line: number;
  /** The innermost source function holding the line, when the table knows one. */
  readonly function?: string;
}

export function encodeLineTable(table: LineTable): Uint8Array {
  const out: number[] = [];
  const u32 = (n: number) => {
    do {
      const byte = n & 0x7f;
      n >>>= 7;
      out.push(n === 0 ? byte : byte | 0x80);
    } while (n !== 0);
  };
  const name = (text: string) => {
    const bytes = UTF8_ENCODER.encode(text);
    u32(bytes.length);
    for (const b of bytes) out.push(b);
  };
  u32(table.files.length);
  table.files.forEach(name);
  u32(table.entries.length);
  let previous = { offset: 0, file: 0, line: 0 };
  for (const entry of table.entries) {
    const delta = entry.line - previous.line;
    const zigzag = delta >= 0 ? 2 * delta : -2 * delta - 1;
    const fileChanges = entry.file !== previous.file;
    u32(entry.offset - previous.offset);
    u32(2 * zigzag + (fileChanges ? 1 : 0));
    if (fileChanges) u32(entry.file);
    previous = entry;
  }
  u32(table.functions.length);
  for (const f of table.functions) {
    u32(f.file);
    u32(f.firstLine);
    u32(f.lastLine - f.firstLine);
    name(f.name);
  }
  return Uint8Array.from(out);
}

/** Throws LINE_TABLE_MALFORMED for bytes that are not a line table. */
export function decodeLineTable(bytes: Uint8Array): LineTable {
  let at = 0;
  const malformed = (what: string) => new TsibaseError('LINE_TABLE_MALFORMED', `the ${LINE_TABLE_SECTION} section is malformed: ${what}`);
  const u32 = () => {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= bytes.length) throw malformed('it ends inside a number');
      const byte = bytes[at++]!;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw malformed('a number is longer than 5 bytes');
  };
  const name = (what: string) => {
    const length = u32();
    if (at + length > bytes.length) throw malformed(`${what} runs past its end`);
    try {
      return UTF8.decode(bytes.subarray(at, (at += length)));
    } catch {
      throw malformed(`${what} is not UTF-8`);
    }
  };
  const files: string[] = [];
  for (let count = u32(), i = 0; i < count; i++) files.push(name(`file name ${i}`));
  const entries: LineEntry[] = [];
  let offset = 0;
  let file = 0;
  let line = 0;
  for (let count = u32(), i = 0; i < count; i++) {
    offset += u32();
    const head = u32();
    const zigzag = Math.floor(head / 2);
    line += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    if (head % 2 === 1) file = u32();
    if (file >= files.length) throw malformed(`entry ${i} names file ${file} of ${files.length}`);
    if (line < 1) throw malformed(`entry ${i} has line ${line}`);
    entries.push({ offset, file, line });
  }
  const functions: SourceFunction[] = [];
  for (let count = u32(), i = 0; i < count; i++) {
    const fileIndex = u32();
    if (fileIndex >= files.length) throw malformed(`function ${i} names file ${fileIndex} of ${files.length}`);
    const firstLine = u32();
    functions.push({ file: fileIndex, firstLine, lastLine: firstLine + u32(), name: name(`function name ${i}`) });
  }
  if (at !== bytes.length) throw malformed('bytes follow the last function');
  return { files, entries, functions };
}

/** The source line the code at module offset `offset` came from, if the table knows one. */
export function sourceLineAt(table: LineTable, offset: number): SourceLine | undefined {
  const { entries } = table;
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid]!.offset <= offset) low = mid + 1;
    else high = mid;
  }
  const entry = entries[low - 1];
  if (!entry) return undefined;
  let innermost: SourceFunction | undefined;
  for (const f of table.functions) {
    if (f.file !== entry.file || f.firstLine > entry.line || f.lastLine < entry.line) continue;
    if (!innermost || f.lastLine - f.firstLine < innermost.lastLine - innermost.firstLine) innermost = f;
  }
  const source = { file: table.files[entry.file]!, line: entry.line };
  return innermost ? { ...source, function: innermost.name } : source;
}
