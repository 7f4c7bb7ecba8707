import { forbiddenFeature, malformed } from '../admission-error.js';
import type { ByteReader } from './byte-reader.js';
import { EXTERNREF, FUNCREF, isValueType, type ValueTypeCode } from './wasm-constants.js';

/** Reads a value type, refusing reference types; `where` names the place for the message. */
export function readValueType(reader: ByteReader, where: string): ValueTypeCode {
  const start = reader.offset;
  const code = reader.u8();
  if (isValueType(code)) return code;
  if (code === FUNCREF || code === EXTERNREF) {
    throw forbiddenFeature(`${code === FUNCREF ? 'funcref' : 'externref'} ${where}`, 'reference types');
  }
  // 0x63/0x64 start typed references; 0x65..0x74 are the abstract heap types of GC.
  if (code >= 0x63 && code <= 0x74) throw forbiddenFeature(`reference type 0x${code.toString(16)} ${where}`, 'GC');
  throw malformed(`invalid value type 0x${code.toString(16)} ${where}`, start);
}
