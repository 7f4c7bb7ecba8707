import { encodeLineTable, LINE_TABLE_SECTION } from '../../host-api/abi/line-table.js';
import { ByteReader } from '../wasm/admission/binary/byte-reader.js';
import { ByteWriter } from '../wasm/admission/binary/byte-writer.js';
import { SectionId } from '../wasm/admission/binary/wasm-constants.js';
import { lineTableOfSourceMap } from './source-map-lines.js';

// A compiled module with its line table (docs/host-abi.md §10.2) added as its last section, so a
// trap in it names its source file and line. The compiler's `sourceMappingURL` section points at
// a map file no one deploys; it goes when it follows the code section (the compiler writes it
// last), where dropping it moves no offset the table gives. Everything else is copied byte for
// byte: the table's offsets are those of the compiler's output.

const SOURCE_MAP_URL_SECTION = 'sourceMappingURL';
const HEADER_BYTES = 8;

export function withLineTable(binary: Uint8Array, sourceMap: string): Uint8Array {
  const table = new ByteWriter().name(LINE_TABLE_SECTION).bytes(encodeLineTable(lineTableOfSourceMap(sourceMap)));
  const out = new ByteWriter(binary.length + table.length + 16).copy(binary, 0, HEADER_BYTES);
  const r = new ByteReader(binary, HEADER_BYTES);
  let afterCode = false;
  while (!r.atEnd()) {
    const header = r.offset;
    const id = r.u8();
    const size = r.u32();
    const start = r.offset;
    const dropped = afterCode && id === SectionId.custom && new ByteReader(binary, start, start + size).name() === SOURCE_MAP_URL_SECTION;
    if (!dropped) out.copy(binary, header, start + size);
    if (id === SectionId.code) afterCode = true;
    r.offset = start + size;
  }
  out.u8(SectionId.custom).sized(table);
  return out.view().slice();
}
