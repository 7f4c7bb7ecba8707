import { AdmissionError, forbiddenFeature, malformed } from '../admission-error.js';
import type { ByteReader } from './byte-reader.js';
import type { FunctionType } from './module-types.js';
import {
  FORBIDDEN_PREFIXES,
  Immediate,
  MISC_OPCODES,
  PREFIX_MISC,
  PREFIX_SIMD,
  SIMD_OPCODES,
  SINGLE_BYTE_OPCODES,
  isForbidden,
  type OpcodeInfo,
} from './opcodes.js';
import { BLOCK_TYPE_EMPTY, EXTERNREF, FUNCREF, isValueType } from './wasm-constants.js';

/** One decoded instruction; a single object is refilled by every read to avoid allocation. */
export interface Instruction {
  info: OpcodeInfo;
  start: number;
  /** The label, function, type, local or global index, for instructions that have one. */
  index: number;
  /** Results of a block, loop or if (0 or 1: multi-value block types are refused). */
  blockResults: number;
  /** Label depths of a br_table, default last. */
  readonly targets: number[];
}

export function emptyInstruction(): Instruction {
  return { info: SINGLE_BYTE_OPCODES[0x01] as OpcodeInfo, start: 0, index: 0, blockResults: 0, targets: [] };
}

/**
 * Decodes the instruction stream of one function body, refusing opcodes and immediates of
 * features outside the admitted set. `where` names the function for messages.
 */
export class InstructionReader {
  constructor(
    private readonly reader: ByteReader,
    private readonly types: readonly FunctionType[],
    private readonly where: string,
  ) {}

  read(out: Instruction): void {
    const r = this.reader;
    out.start = r.offset;
    const info = this.readOpcode();
    out.info = info;
    switch (info.immediate) {
      case Immediate.none:
        return;
      case Immediate.blockType:
        out.blockResults = this.readBlockType();
        return;
      case Immediate.label:
      case Immediate.function:
      case Immediate.local:
      case Immediate.global:
      case Immediate.dataIndex:
      case Immediate.elemIndex:
        out.index = r.u32();
        return;
      case Immediate.labelTable: {
        const count = r.u32();
        if (count > r.end - r.offset) throw malformed('br_table target list does not fit the body', out.start);
        out.targets.length = 0;
        for (let i = 0; i <= count; i++) out.targets.push(r.u32());
        return;
      }
      case Immediate.callIndirect:
        out.index = r.u32();
        this.expectZeroIndex('call_indirect through a table other than table 0', 'reference types');
        return;
      case Immediate.memarg:
        this.readMemarg();
        return;
      case Immediate.memargLane:
        this.readMemarg();
        r.skip(1);
        return;
      case Immediate.memoryIndex:
        this.expectZeroIndex(`${info.name} on a memory other than memory 0`, 'multi-memory');
        return;
      case Immediate.memoryInit:
        out.index = r.u32();
        this.expectZeroIndex('memory.init on a memory other than memory 0', 'multi-memory');
        return;
      case Immediate.memoryCopy:
        this.expectZeroIndex('memory.copy between memories other than memory 0', 'multi-memory');
        this.expectZeroIndex('memory.copy between memories other than memory 0', 'multi-memory');
        return;
      case Immediate.tableInit:
        out.index = r.u32();
        this.expectZeroIndex('table.init on a table other than table 0', 'reference types');
        return;
      case Immediate.tableCopy:
        this.expectZeroIndex('table.copy between tables other than table 0', 'reference types');
        this.expectZeroIndex('table.copy between tables other than table 0', 'reference types');
        return;
      case Immediate.i32:
        r.signed(32);
        return;
      case Immediate.i64:
        r.skipS64();
        return;
      case Immediate.f32:
        r.skip(4);
        return;
      case Immediate.f64:
        r.skip(8);
        return;
      case Immediate.v128:
      case Immediate.shuffle:
        r.skip(16);
        return;
      case Immediate.lane:
        r.skip(1);
        return;
    }
  }

  private readOpcode(): OpcodeInfo {
    const r = this.reader;
    const start = r.offset;
    const first = r.u8();
    let entry = SINGLE_BYTE_OPCODES[first];
    let sub: number | undefined;
    if (first === PREFIX_MISC || first === PREFIX_SIMD || FORBIDDEN_PREFIXES[first] !== undefined) {
      sub = r.u32();
      entry = first === PREFIX_MISC ? MISC_OPCODES[sub] : first === PREFIX_SIMD ? SIMD_OPCODES[sub] : FORBIDDEN_PREFIXES[first];
    }
    if (entry !== undefined && !isForbidden(entry)) return entry;
    const label = sub === undefined ? hex(first) : `${hex(first)} ${hex(sub)}`;
    if (entry === undefined) throw malformed(`unknown opcode ${label} in ${this.where}`, start);
    throw forbiddenFeature(`opcode ${label} (${entry.name}) in ${this.where}`, entry.feature);
  }

  /** Block types: empty, one value type, or a type index without params and with at most one result. */
  private readBlockType(): number {
    const start = this.reader.offset;
    const code = this.reader.signed(33);
    if (code >= 0) {
      const type = this.types[code];
      if (type === undefined) throw new AdmissionError('WASM_INVALID', `block type ${code} in ${this.where} does not exist`);
      if (type.params.length > 0 || type.results.length > 1) {
        throw forbiddenFeature(`block type ${code} with parameters or several results in ${this.where}`, 'multi-value');
      }
      return type.results.length;
    }
    // Negative block types are single-byte codes: the empty type or a value type.
    const byte = code & 0x7f;
    if (this.reader.offset - start === 1) {
      if (byte === BLOCK_TYPE_EMPTY) return 0;
      if (isValueType(byte)) return 1;
      if (byte === FUNCREF || byte === EXTERNREF) throw forbiddenFeature(`block returning a reference in ${this.where}`, 'reference types');
      if (byte >= 0x63 && byte <= 0x6e) throw forbiddenFeature(`block returning a typed reference in ${this.where}`, 'GC');
    }
    throw malformed(`invalid block type in ${this.where}`, start);
  }

  private readMemarg(): void {
    const r = this.reader;
    const align = r.u32();
    if (align & 0x40) throw forbiddenFeature(`memory access with an explicit memory index in ${this.where}`, 'multi-memory');
    r.u32();
  }

  private expectZeroIndex(what: string, feature: string): void {
    if (this.reader.u32() !== 0) throw forbiddenFeature(`${what} in ${this.where}`, feature);
  }
}

function hex(value: number): string {
  return `0x${value.toString(16).toUpperCase().padStart(2, '0')}`;
}
