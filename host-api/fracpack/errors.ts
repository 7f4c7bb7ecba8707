import { TsibaseError } from '../errors.js';

/** Stable codes of fracpack failures; the message says where and why. */
export type FracpackErrorCode =
  | 'FRACPACK_SCHEMA'           // the schema itself is wrong (unknown type, bad shape, infinite size)
  | 'FRACPACK_VALUE'            // a value to pack does not fit its type
  | 'FRACPACK_JSON'             // JSON input does not fit its type
  | 'FRACPACK_TRUNCATED'        // a read goes past the end of the buffer or of a body
  | 'FRACPACK_BAD_OFFSET'       // an offset is 2/3, misplaced 0/1, out of order, or leaves a gap
  | 'FRACPACK_TRAILING_BYTES'   // bytes left over after the top-level value or a body
  | 'FRACPACK_BAD_BOOL'         // a bool byte that is not 0 or 1
  | 'FRACPACK_BAD_UTF8'         // a string that is not valid UTF-8
  | 'FRACPACK_BAD_LENGTH'       // a list byte length not a multiple of its element size, or a bad fixed-area length
  | 'FRACPACK_BAD_VARIANT'      // a variant tag out of range
  | 'FRACPACK_OUT_OF_RANGE'     // an integer that does not fit its declared bit width
  | 'FRACPACK_UNKNOWN_FIELD'    // extension data in strict mode
  | 'FRACPACK_EMPTY_TRAILING';  // an Object whose last present slot is an absent optional

export class FracpackError extends TsibaseError {
  declare readonly code: FracpackErrorCode;

  constructor(code: FracpackErrorCode, message: string) {
    super(code, message);
  }
}
