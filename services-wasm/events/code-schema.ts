// The schema of a deployed service: the `service-schema` custom section (UTF-8 JSON) that the
// SDK's build embeds in every module, read from the service's code in the native code tables;
// for code built without it (psibase's SDK), the schema the service stored with packages.

import { AccountNumber, DbId, kv, unpack } from "../sdk/index";
import { CodeByHashRow, codeByHashKey, getCodeRow, hasCode } from "../sdk/native/index";
import { decodeUtf8, isValidUtf8 } from "../sdk/utf8";
import { installedSchemaOf } from "../sdk/packages/installed-schemas";

const SCHEMA_SECTION = "service-schema";
/** `\0asm` and the version. */
const HEADER_SIZE: u32 = 8;

/** Reads wasm's LEB128 u32s and names out of a module. */
class ModuleReader {
  pos: u32 = HEADER_SIZE;
  ok: bool = true;

  constructor(private code: Uint8Array) {}

  u32(): u32 {
    let value: u32 = 0;
    for (let shift: u32 = 0; shift < 35; shift += 7) {
      if (this.pos >= <u32>this.code.length) break;
      const b = <u32>this.code[this.pos++];
      value |= (b & 0x7f) << shift;
      if (b < 0x80) return value;
    }
    this.ok = false;
    return 0;
  }
}

/** The content of the custom section `name` of a wasm module, or null. */
function customSection(code: Uint8Array, name: string): Uint8Array | null {
  const r = new ModuleReader(code);
  const length = <u32>code.length;
  while (r.ok && r.pos < length) {
    const id = code[r.pos++];
    const size = r.u32();
    const start = r.pos;
    if (!r.ok || <u64>start + size > <u64>length) return null;
    const end = start + size;
    if (id == 0) {
      const nameLength = r.u32();
      const nameStart = r.pos;
      if (!r.ok || <u64>nameStart + nameLength > <u64>end) return null;
      if (isValidUtf8(code.dataStart + nameStart, nameLength) && decodeUtf8(code.dataStart + nameStart, nameLength) == name) {
        return code.subarray(nameStart + nameLength, end);
      }
    }
    r.pos = end;
  }
  return null;
}

/** The schema JSON embedded in `service`'s code; null when it has no code or its code has no (UTF-8) schema. */
function embeddedSchemaOf(service: AccountNumber): string | null {
  const row = getCodeRow(service);
  if (row === null || !hasCode(row)) return null;
  const code = kv.get(DbId.native, codeByHashKey(row.codeHash, row.vmType, row.vmVersion));
  if (code === null) return null;
  const section = customSection(unpack<CodeByHashRow>(code).code, SCHEMA_SECTION);
  if (section === null || !isValidUtf8(section.dataStart, section.length)) return null;
  return decodeUtf8(section.dataStart, section.length);
}

/** `service`'s schema JSON: the one its code embeds, else the one it stored with packages; null when neither. */
export function serviceSchemaOf(service: AccountNumber): string | null {
  const embedded = embeddedSchemaOf(service);
  return embedded !== null ? embedded : installedSchemaOf(service);
}
