import { AdmissionError, forbiddenFeature, malformed } from '../admission-error.js';
import type { ByteReader } from './byte-reader.js';
import { FUNCREF } from './wasm-constants.js';

const END = 0x0b;

/**
 * Steps over a constant expression (global initialiser, segment offset): exactly one numeric
 * or v128 constant followed by `end`. `global.get` is refused because in the admitted subset
 * it could only name an imported global, and services import none.
 */
export function skipConstantExpression(reader: ByteReader, where: string): void {
  const start = reader.offset;
  const opcode = reader.u8();
  switch (opcode) {
    case 0x41:
      reader.signed(32);
      break;
    case 0x42:
      reader.skipS64();
      break;
    case 0x43:
      reader.skip(4);
      break;
    case 0x44:
      reader.skip(8);
      break;
    case 0xfd:
      if (reader.u32() !== 0x0c) throw invalidConstant(where);
      reader.skip(16);
      break;
    case 0x23:
      throw new AdmissionError('WASM_INVALID', `global.get in ${where} would need an imported global, and services cannot import globals`);
    case 0xd0:
    case 0xd2:
      throw forbiddenFeature(`reference constant in ${where}`, 'reference types');
    default:
      throw invalidConstant(where);
  }
  const next = reader.u8();
  if (next === END) return;
  if (EXTENDED_CONSTANT_OPCODES.has(next)) throw forbiddenFeature(`arithmetic in ${where}`, 'extended constant expressions');
  throw malformed(`${where} must be a single constant followed by end`, start);
}

/** i32/i64 const, add, sub, mul: the instructions the extended-const proposal allows. */
const EXTENDED_CONSTANT_OPCODES = new Set([0x41, 0x42, 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e]);

/** One element of an expression-encoded element segment: `ref.func i` gives i, `ref.null func` undefined. */
export function readElementExpression(reader: ByteReader): number | undefined {
  const start = reader.offset;
  const opcode = reader.u8();
  let index: number | undefined;
  if (opcode === 0xd2) index = reader.u32();
  else if (opcode !== 0xd0 || reader.u8() !== FUNCREF) {
    throw malformed('element expression must be ref.func or ref.null func', start);
  }
  if (reader.u8() !== END) throw malformed('element expression must end after one reference', start);
  return index;
}

function invalidConstant(where: string): AdmissionError {
  return new AdmissionError('WASM_INVALID', `${where} is not a constant expression of the admitted instruction set`);
}
