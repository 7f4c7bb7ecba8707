import { TsibaseError } from '../errors.js';
import { decodeUtf8 } from '../encoding/utf8.js';

// The schema a service's build embeds in its code: the `service-schema` custom section (UTF-8
// JSON, services-wasm/sdk/README.md). The boot and `tsibase deploy` store it with packages::setSchema.

const SCHEMA_SECTION = 'service-schema';
/** `\0asm` and the version. */
const HEADER_SIZE = 8;

function malformed(): TsibaseError {
  return new TsibaseError('SERVICE_SCHEMA_MALFORMED', 'the code is not a well-formed wasm module');
}

/** Reads LEB128 u32s from `code` at `pos`. */
class Leb {
  constructor(private readonly code: Uint8Array, public pos: number) {}

  u32(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.code.length) break;
      const b = this.code[this.pos++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    throw malformed();
  }
}

/** The schema JSON text embedded in `code`, or null when it carries none. */
export function embeddedSchema(code: Uint8Array): string | null {
  const r = new Leb(code, HEADER_SIZE);
  while (r.pos < code.length) {
    const id = code[r.pos++];
    const size = r.u32();
    const end = r.pos + size;
    if (end > code.length) throw malformed();
    if (id === 0) {
      const nameLength = r.u32();
      const nameEnd = r.pos + nameLength;
      if (nameEnd > end) throw malformed();
      if (decodeUtf8(code, r.pos, nameEnd) === SCHEMA_SECTION) {
        const schema = decodeUtf8(code, nameEnd, end);
        if (schema === undefined) throw new TsibaseError('SERVICE_SCHEMA_MALFORMED', `the ${SCHEMA_SECTION} section is not UTF-8`);
        return schema;
      }
    }
    r.pos = end;
  }
  return null;
}
