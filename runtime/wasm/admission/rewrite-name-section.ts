import { AdmissionError } from './admission-error.js';
import { ByteReader } from './binary/byte-reader.js';
import { ByteWriter } from './binary/byte-writer.js';
import { METER_GLOBAL_COUNT } from './metering/meter-imports.js';

const Subsection = { labels: 3, globals: 7 } as const;

/**
 * The `name` custom section after metering (debug names only, never semantics): global names
 * move with the global indices, label names are dropped because metering adds blocks. A name
 * section that does not decode is dropped whole, as engines ignore it anyway.
 */
export function rewriteNameSection(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  try {
    const r = new ByteReader(bytes, start, end);
    const out = new ByteWriter(end - start + 16);
    out.name(r.name());
    const subsection = new ByteWriter();
    while (!r.atEnd()) {
      const id = r.u8();
      const size = r.u32();
      const contentStart = r.offset;
      r.skip(size);
      if (id === Subsection.labels) continue;
      if (id === Subsection.globals) {
        const names = new ByteReader(bytes, contentStart, contentStart + size);
        const count = names.u32();
        subsection.reset().u32(count);
        for (let i = 0; i < count; i++) subsection.u32(names.u32() + METER_GLOBAL_COUNT).name(names.name());
        out.u8(id).sized(subsection);
      } else {
        out.u8(id).u32(size).copy(bytes, contentStart, contentStart + size);
      }
    }
    return out.view();
  } catch (error) {
    if (error instanceof AdmissionError) return undefined;
    throw error;
  }
}
