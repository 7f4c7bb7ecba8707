// The parts of a decoded module that admission checks and rewrites. Sections it copies
// unchanged are kept as byte ranges of the original.

import type { ValueTypeCode } from './wasm-constants.js';

export interface FunctionType {
  readonly params: readonly ValueTypeCode[];
  readonly results: readonly ValueTypeCode[];
}

/** Only functions can be imported by services; other import kinds are refused while reading. */
export interface FunctionImport {
  readonly module: string;
  readonly name: string;
  readonly typeIndex: number;
}

export interface Limits {
  readonly initial: number;
  readonly maximum: number | undefined;
}

export interface GlobalDefinition {
  readonly type: ValueTypeCode;
  readonly mutable: boolean;
}

export type ExportKind = 'function' | 'table' | 'memory' | 'global';

export interface Export {
  readonly name: string;
  readonly kind: ExportKind;
  readonly index: number;
}

export interface SectionRange {
  readonly id: number;
  /** The name of a custom section. */
  readonly customName?: string;
  /** Offset of the section's content, after its id and size. */
  readonly start: number;
  readonly end: number;
}

/** Byte range of one function body: the locals declarations followed by the code. */
export interface BodyRange {
  readonly start: number;
  readonly end: number;
}

export interface WasmModule {
  readonly bytes: Uint8Array;
  /** Every section in file order, custom sections included. */
  readonly sections: readonly SectionRange[];
  readonly types: readonly FunctionType[];
  readonly imports: readonly FunctionImport[];
  /** Type index of each function defined in the module, in function-index order after the imports. */
  readonly functionTypes: readonly number[];
  readonly tables: readonly Limits[];
  readonly memories: readonly Limits[];
  readonly globals: readonly GlobalDefinition[];
  readonly exports: readonly Export[];
  /** Function the start section names. */
  readonly start: number | undefined;
  /** Functions the element segments name: all that call_indirect can reach. */
  readonly tableFunctions: readonly number[];
  readonly bodies: readonly BodyRange[];
}
