import { AdmissionError, forbiddenFeature, malformed } from '../admission-error.js';
import { ByteReader } from './byte-reader.js';
import type {
  BodyRange,
  Export,
  FunctionImport,
  FunctionType,
  GlobalDefinition,
  Limits,
  SectionRange,
  WasmModule,
} from './module-types.js';
import { readElementExpression, skipConstantExpression } from './read-constant-expression.js';
import { readValueType } from './read-value-type.js';
import {
  EXTERNAL_KIND_NAMES,
  EXTERNREF,
  ExternalKind,
  FUNCREF,
  FUNCTION_TYPE_FORM,
  SECTION_ORDER,
  SectionId,
  WASM_MAGIC,
  WASM_VERSION,
} from './wasm-constants.js';

/**
 * Decodes the module structure (everything except instruction streams, which the metering
 * pass decodes) of the admitted subset. Encodings that belong to refused proposals end in
 * WASM_FORBIDDEN_FEATURE or WASM_FORBIDDEN_IMPORT; anything else that does not decode ends in
 * WASM_MALFORMED.
 */
export function readModule(bytes: Uint8Array): WasmModule {
  return new ModuleReader(bytes).read();
}

class ModuleReader {
  private readonly reader: ByteReader;
  private readonly sections: SectionRange[] = [];
  private readonly types: FunctionType[] = [];
  private readonly imports: FunctionImport[] = [];
  private readonly functionTypes: number[] = [];
  private readonly tables: Limits[] = [];
  private readonly memories: Limits[] = [];
  private readonly globals: GlobalDefinition[] = [];
  private readonly exports: Export[] = [];
  private readonly bodies: BodyRange[] = [];
  private readonly tableFunctions: number[] = [];
  private start: number | undefined;

  constructor(private readonly bytes: Uint8Array) {
    this.reader = new ByteReader(bytes);
  }

  read(): WasmModule {
    this.readHeader();
    let lastOrder = 0;
    const r = this.reader;
    while (!r.atEnd()) {
      const idOffset = r.offset;
      const id = r.u8();
      const size = r.u32();
      const start = r.offset;
      if (size > r.end - start) throw malformed(`section ${id} extends past the end of the module`, idOffset);
      const section = new ByteReader(this.bytes, start, start + size);
      if (id === SectionId.custom) {
        this.sections.push({ id, customName: section.name(), start, end: start + size });
      } else {
        const order = SECTION_ORDER[id];
        if (order === undefined) throw malformed(`unknown section id ${id}`, idOffset);
        if (order <= lastOrder) throw malformed(`section ${id} is duplicated or out of order`, idOffset);
        lastOrder = order;
        this.readSection(id, section);
        if (!section.atEnd()) throw malformed(`section ${id} has ${section.end - section.offset} bytes left over`, section.offset);
        this.sections.push({ id, start, end: start + size });
      }
      r.offset = start + size;
    }
    if (this.bodies.length !== this.functionTypes.length) {
      throw malformed(`${this.functionTypes.length} functions declared but ${this.bodies.length} bodies given`, r.offset);
    }
    return {
      bytes: this.bytes,
      sections: this.sections,
      types: this.types,
      imports: this.imports,
      functionTypes: this.functionTypes,
      tables: this.tables,
      memories: this.memories,
      globals: this.globals,
      exports: this.exports,
      start: this.start,
      tableFunctions: this.tableFunctions,
      bodies: this.bodies,
    };
  }

  private readHeader(): void {
    const b = this.bytes;
    if (b.length < 8) throw malformed('module is shorter than the 8-byte header', 0);
    if (WASM_MAGIC.some((byte, i) => b[i] !== byte)) throw malformed('not a WebAssembly module (bad magic number)', 0);
    if (WASM_VERSION.some((byte, i) => b[4 + i] !== byte)) {
      throw malformed('unsupported binary version (only core modules of version 1 are accepted)', 4);
    }
    this.reader.offset = 8;
  }

  private readSection(id: number, r: ByteReader): void {
    switch (id) {
      case SectionId.type:
        return this.readVector(r, () => this.readFunctionType(r));
      case SectionId.import:
        return this.readVector(r, () => this.readImport(r));
      case SectionId.function:
        return this.readVector(r, () => void this.functionTypes.push(r.u32()));
      case SectionId.table:
        return this.readVector(r, () => this.readTable(r));
      case SectionId.memory:
        return this.readVector(r, () => this.readMemory(r));
      case SectionId.tag:
        throw forbiddenFeature('tag section', 'exceptions');
      case SectionId.global:
        return this.readVector(r, () => this.readGlobal(r));
      case SectionId.export:
        return this.readVector(r, () => this.readExport(r));
      case SectionId.start:
        this.start = r.u32();
        return;
      case SectionId.element:
        return this.readVector(r, () => this.readElementSegment(r));
      case SectionId.dataCount:
        r.u32();
        return;
      case SectionId.code:
        return this.readVector(r, () => this.readBody(r));
      case SectionId.data:
        return this.readVector(r, () => this.readDataSegment(r));
    }
  }

  private readVector(r: ByteReader, readItem: () => void): void {
    const start = r.offset;
    const count = r.u32();
    // Every item takes at least one byte: refuse absurd counts before looping over them.
    if (count > r.end - r.offset) throw malformed(`vector of ${count} items does not fit its section`, start);
    for (let i = 0; i < count; i++) readItem();
  }

  private readFunctionType(r: ByteReader): void {
    const start = r.offset;
    const form = r.u8();
    const index = this.types.length;
    if (form !== FUNCTION_TYPE_FORM) {
      if (form >= 0x4e && form <= 0x5f) throw forbiddenFeature(`type ${index} is not a function type`, 'GC');
      throw malformed(`invalid type form 0x${form.toString(16)}`, start);
    }
    const where = `in function type ${index}`;
    const params = this.readValueTypes(r, where);
    const results = this.readValueTypes(r, where);
    if (results.length > 1) {
      throw forbiddenFeature(`function type ${index} with ${results.length} results`, 'multi-value');
    }
    this.types.push({ params, results });
  }

  private readValueTypes(r: ByteReader, where: string): FunctionType['params'] {
    const count = r.u32();
    if (count > r.end - r.offset) throw malformed(`${count} value types do not fit ${where}`, r.offset);
    return Array.from({ length: count }, () => readValueType(r, where));
  }

  private readImport(r: ByteReader): void {
    const module = r.name();
    const name = r.name();
    const start = r.offset;
    const kind = r.u8();
    if (kind === ExternalKind.function) {
      this.imports.push({ module, name, typeIndex: r.u32() });
      return;
    }
    const kindName = EXTERNAL_KIND_NAMES[kind];
    if (kindName === undefined) throw malformed(`invalid import kind ${kind}`, start);
    throw new AdmissionError(
      'WASM_FORBIDDEN_IMPORT',
      `imported ${kindName} ${module}.${name} is not allowed: services may import host functions only`,
    );
  }

  private readTable(r: ByteReader): void {
    const start = r.offset;
    const elementType = r.u8();
    if (elementType === 0x40) throw forbiddenFeature('table with an initialiser', 'typed function references');
    if (elementType !== FUNCREF) {
      if (elementType === EXTERNREF) throw forbiddenFeature('externref table', 'reference types');
      throw malformed(`invalid table element type 0x${elementType.toString(16)}`, start);
    }
    if (this.tables.length === 1) throw forbiddenFeature('more than one table', 'reference types');
    this.tables.push(this.readLimits(r, 'table'));
  }

  private readMemory(r: ByteReader): void {
    if (this.memories.length === 1) throw forbiddenFeature('more than one memory', 'multi-memory');
    this.memories.push(this.readLimits(r, 'memory'));
  }

  private readLimits(r: ByteReader, what: 'table' | 'memory'): Limits {
    const start = r.offset;
    const flags = r.u8();
    if (flags & 0x02) throw forbiddenFeature(`shared ${what}`, 'threads');
    if (flags & 0x04) throw forbiddenFeature(`64-bit ${what}`, 'memory64');
    if (flags & 0x08) throw forbiddenFeature(`${what} with a custom page size`, 'custom page sizes');
    if (flags > 0x01) throw malformed(`invalid ${what} limits flags 0x${flags.toString(16)}`, start);
    const initial = r.u32();
    const maximum = flags === 0x01 ? r.u32() : undefined;
    return { initial, maximum };
  }

  private readGlobal(r: ByteReader): void {
    const index = this.globals.length;
    const type = readValueType(r, `in global ${index}`);
    const start = r.offset;
    const mutability = r.u8();
    if (mutability > 1) throw malformed(`invalid mutability ${mutability} of global ${index}`, start);
    skipConstantExpression(r, `the initialiser of global ${index}`);
    this.globals.push({ type, mutable: mutability === 1 });
  }

  private readExport(r: ByteReader): void {
    const name = r.name();
    const start = r.offset;
    const kind = r.u8();
    const index = r.u32();
    if (kind === ExternalKind.tag) throw forbiddenFeature(`export ${name} of a tag`, 'exceptions');
    const kindName = EXTERNAL_KIND_NAMES[kind];
    if (kindName === undefined) throw malformed(`invalid export kind ${kind}`, start);
    this.exports.push({ name, kind: kindName as Export['kind'], index });
  }

  /**
   * Element segment flags: bit 0 = passive or declarative, bit 1 = explicit table index (active)
   * or declarative (passive), bit 2 = elements are expressions instead of function indices.
   */
  private readElementSegment(r: ByteReader): void {
    const start = r.offset;
    const flags = r.u32();
    if (flags > 7) throw malformed(`invalid element segment flags ${flags}`, start);
    const passiveOrDeclarative = (flags & 1) !== 0;
    const explicit = (flags & 2) !== 0;
    const expressions = (flags & 4) !== 0;
    if (passiveOrDeclarative && explicit) throw forbiddenFeature('declarative element segment', 'reference types');
    if (!passiveOrDeclarative && explicit && r.u32() !== 0) throw forbiddenFeature('element segment for a second table', 'reference types');
    if (!passiveOrDeclarative) skipConstantExpression(r, 'an element segment offset');
    if (passiveOrDeclarative || explicit) {
      const typeOffset = r.offset;
      const type = r.u8();
      // Function-index segments name an element kind (0x00 = funcref), expression segments a reference type.
      if (type !== (expressions ? FUNCREF : 0x00)) {
        if (type === EXTERNREF) throw forbiddenFeature('externref element segment', 'reference types');
        throw malformed(`invalid element type 0x${type.toString(16)}`, typeOffset);
      }
    }
    this.readVector(r, () => {
      const index = expressions ? readElementExpression(r) : r.u32();
      if (index !== undefined) this.tableFunctions.push(index);
    });
  }

  private readBody(r: ByteReader): void {
    const size = r.u32();
    const start = r.offset;
    r.skip(size);
    this.bodies.push({ start, end: start + size });
  }

  private readDataSegment(r: ByteReader): void {
    const start = r.offset;
    const flags = r.u32();
    if (flags > 2) throw malformed(`invalid data segment flags ${flags}`, start);
    if (flags === 2 && r.u32() !== 0) throw forbiddenFeature('data segment for a second memory', 'multi-memory');
    if (flags !== 1) skipConstantExpression(r, 'a data segment offset');
    r.skip(r.u32());
  }
}
