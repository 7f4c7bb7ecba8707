import { TsibaseError } from '../../host-api/errors.js';
import type { LineEntry, LineTable } from '../../host-api/abi/line-table.js';

// The compiler's source map of a module turned into the module's line table
// (host-api/abi/line-table.ts, docs/host-abi.md §10.2). A WebAssembly source map has one
// generated line; its "column" is the byte offset in the module. Segments are base64 VLQ numbers:
// the offset delta, then (when the code has a source) the deltas of the source index, the line
// (0-based) and the column. Only a change of file or line makes an entry: a trap names a line.
// Code without a source (what the compiler made up between lines) is left to the line before it,
// which it serves: it makes no entry, so the table stays small.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

interface SourceMapJson {
  readonly sources?: unknown;
  readonly mappings?: unknown;
}

/** Throws BUILD_SOURCE_MAP for a map that is not a WebAssembly source map. */
export function lineTableOfSourceMap(text: string): Omit<LineTable, 'functions'> {
  const map = JSON.parse(text) as SourceMapJson;
  if (!Array.isArray(map.sources) || typeof map.mappings !== 'string') throw bad('it has no sources or mappings');
  // A map may list a file more than once: each is one file of the table.
  const sources = map.sources.map((s) => String(s));
  const files = [...new Set(sources)];
  const fileOf = sources.map((s) => files.indexOf(s));
  const entries: LineEntry[] = [];
  let offset = 0;
  let source = 0;
  let line = 0;
  let last: LineEntry | undefined;
  for (const segment of map.mappings.split(',')) {
    if (segment === '') continue;
    const fields = vlqNumbers(segment);
    if (fields[0]! < 0) throw bad('its offsets go backwards');
    offset += fields[0]!;
    if (fields.length < 4) continue;
    source += fields[1]!;
    line += fields[2]!;
    if (source < 0 || source >= sources.length) throw bad(`a segment names source ${source} of ${sources.length}`);
    const entry = { offset, file: fileOf[source]!, line: line + 1 };
    if (last && last.file === entry.file && last.line === entry.line) continue;
    entries.push(entry);
    last = entry;
  }
  return { files, entries };
}

function vlqNumbers(segment: string): number[] {
  const numbers: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw bad(`'${c}' is not a base64 digit`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    numbers.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw bad('a number is cut off');
  return numbers;
}

function bad(what: string): TsibaseError {
  return new TsibaseError('BUILD_SOURCE_MAP', `the compiler's source map cannot be read: ${what}`);
}
