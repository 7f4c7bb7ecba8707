import { encodeLineTable, LINE_TABLE_SECTION } from '../../host-api/abi/line-table.js';
import { ByteReader } from '../wasm/admission/binary/byte-reader.js';
import { ByteWriter } from '../wasm/admission/binary/byte-writer.js';
import { SectionId } from '../wasm/admission/binary/wasm-constants.js';
import { lineTableOfSourceMap } from './source-map-lines.js';

// What a compiled module keeps for naming where a trap happened (docs/host-abi.md §10.2): the
// function names of its `name` section, shortened to the name without its module path
// (`services-wasm/tokens/index/Tokens#transfer` is `Tokens#transfer`: the line table names the
// file), and the line table from the compiler's source map, added as the last section. The other
// name subsections (locals, globals, ...) go, and so does the `sourceMappingURL` section, which
// points at a map file no one deploys. Only sections after the code are rewritten, and the code
// is copied byte for byte: the table's offsets are those of the compiler's output.

const NAME_SECTION = 'name';
const SOURCE_MAP_URL_SECTION = 'sourceMappingURL';
const FUNCTION_NAMES = 1;
const HEADER_BYTES = 8;

export function withDebugInfo(binary: Uint8Array, sourceMap: string): Uint8Array {
  const table = new ByteWriter().name(LINE_TABLE_SECTION).bytes(encodeLineTable(lineTableOfSourceMap(sourceMap)));
  const out = new ByteWriter(binary.length + table.length + 16).copy(binary, 0, HEADER_BYTES);
  const r = new ByteReader(binary, HEADER_BYTES);
  let afterCode = false;
  while (!r.atEnd()) {
    const header = r.offset;
    const id = r.u8();
    const size = r.u32();
    const start = r.offset;
    r.offset = start + size;
    const content = new ByteReader(binary, start, start + size);
    const custom = afterCode && id === SectionId.custom ? content.name() : undefined;
    if (custom === SOURCE_MAP_URL_SECTION) continue;
    if (custom === NAME_SECTION) {
      out.u8(SectionId.custom).sized(shortFunctionNames(content));
      continue;
    }
    out.copy(binary, header, start + size);
    if (id === SectionId.code) afterCode = true;
  }
  out.u8(SectionId.custom).sized(table);
  return out.view().slice();
}

/** A `name` section of the function names alone, shortened; `r` is at the first subsection. */
function shortFunctionNames(r: ByteReader): ByteWriter {
  const section = new ByteWriter().name(NAME_SECTION);
  while (!r.atEnd()) {
    const id = r.u8();
    const end = r.u32() + r.offset;
    if (id === FUNCTION_NAMES) {
      const names = new ByteWriter();
      const count = r.u32();
      names.u32(count);
      for (let i = 0; i < count; i++) names.u32(r.u32()).name(shortName(r.name()));
      section.u8(FUNCTION_NAMES).sized(names);
    }
    r.offset = end;
  }
  return section;
}

/** A compiler's function name without the module path it starts with (up to the last `/` before a `<` or `#`). */
function shortName(name: string): string {
  return name.replace(/^[^<#]*\//, '');
}
