import { encodeLineTable, LINE_TABLE_SECTION, type SourceFunction } from '../../host-api/abi/line-table.js';
import { TsibaseError } from '../../host-api/errors.js';
import { ByteReader } from '../wasm/admission/binary/byte-reader.js';
import { ByteWriter } from '../wasm/admission/binary/byte-writer.js';
import { SectionId } from '../wasm/admission/binary/wasm-constants.js';
import { lineTableOfSourceMap } from './source-map-lines.js';

// What a compiled module keeps for naming where a trap happened (docs/host-abi.md §10.2): the line
// table, from the compiler's source map and the source functions the SDK transform lists
// (services-wasm/sdk/transform/functions.mjs), added as the last section. The transform's list
// and the `sourceMappingURL` section (it points at a map file no one deploys) go. Only sections
// after the code are dropped, and everything else is copied byte for byte: the table's offsets
// are those of the compiler's output.

const FUNCTIONS_SECTION = 'tsibase.functions';
const SOURCE_MAP_URL_SECTION = 'sourceMappingURL';
const DROPPED = [FUNCTIONS_SECTION, SOURCE_MAP_URL_SECTION];
const HEADER_BYTES = 8;

/** The transform's entry: file, first line, last line, name. */
type FunctionJson = [string, number, number, string];

export function withDebugInfo(binary: Uint8Array, sourceMap: string): Uint8Array {
  const out = new ByteWriter(binary.length * 2).copy(binary, 0, HEADER_BYTES);
  let functions: FunctionJson[] = [];
  const r = new ByteReader(binary, HEADER_BYTES);
  let afterCode = false;
  while (!r.atEnd()) {
    const header = r.offset;
    const id = r.u8();
    const size = r.u32();
    const start = r.offset;
    r.offset = start + size;
    const content = new ByteReader(binary, start, start + size);
    const custom = id === SectionId.custom ? content.name() : undefined;
    if (custom === FUNCTIONS_SECTION) functions = JSON.parse(new TextDecoder().decode(binary.subarray(content.offset, start + size))) as FunctionJson[];
    if (!(afterCode && custom !== undefined && DROPPED.includes(custom))) out.copy(binary, header, start + size);
    if (id === SectionId.code) afterCode = true;
  }
  const lines = lineTableOfSourceMap(sourceMap);
  const table = encodeLineTable({ ...lines, functions: sourceFunctions(functions, lines.files) });
  out.u8(SectionId.custom).sized(new ByteWriter(table.length + 32).name(LINE_TABLE_SECTION).bytes(table));
  return out.view().slice();
}

/**
 * The transform's functions in the files the table has (a trap can name no other), one per
 * stretch of lines (the instances of a generic function share theirs), in file and line order.
 */
function sourceFunctions(functions: readonly FunctionJson[], files: readonly string[]): SourceFunction[] {
  const fileIndex = new Map(files.map((f, i) => [f, i]));
  const byLines = new Map<string, SourceFunction>();
  for (const entry of functions) {
    if (!Array.isArray(entry) || entry.length !== 4) throw new TsibaseError('BUILD_SOURCE_MAP', `the transform's function list has an entry that is not [file, first line, last line, name]: ${JSON.stringify(entry)}`);
    const [file, firstLine, lastLine, name] = entry;
    const index = fileIndex.get(file);
    const key = `${index} ${firstLine} ${lastLine}`;
    if (index !== undefined && !byLines.has(key)) byLines.set(key, { file: index, firstLine, lastLine, name });
  }
  return [...byLines.values()].sort((a, b) => a.file - b.file || a.firstLine - b.firstLine || a.lastLine - b.lastLine);
}
