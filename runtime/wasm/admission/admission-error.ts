import { TsibaseError } from '../../../host-api/errors.js';

/** Why a module was refused at deploy time. */
export type AdmissionErrorCode =
  /** Not a WebAssembly binary: bad header, truncated, bad LEB128, sections out of order. */
  | 'WASM_MALFORMED'
  /** Well-formed but refused by the engine's validator (types, indices, ...). */
  | 'WASM_INVALID'
  /** Imports something other than a host ABI function with its exact signature. */
  | 'WASM_FORBIDDEN_IMPORT'
  /** Uses a WebAssembly feature outside MVP + bulk memory + sign-ext + sat-trunc + SIMD128. */
  | 'WASM_FORBIDDEN_FEATURE'
  /** Exceeds a resource limit of docs/host-abi.md §10 (code size, memory, table, globals, locals). */
  | 'WASM_LIMIT';

export class AdmissionError extends TsibaseError {
  declare readonly code: AdmissionErrorCode;

  constructor(code: AdmissionErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export function malformed(message: string, offset: number): AdmissionError {
  return new AdmissionError('WASM_MALFORMED', `${message} at byte offset ${offset}`);
}

export function forbiddenFeature(what: string, feature: string): AdmissionError {
  return new AdmissionError('WASM_FORBIDDEN_FEATURE', `${what} is not allowed (feature: ${feature})`);
}
