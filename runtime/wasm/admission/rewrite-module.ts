import { ByteWriter } from './binary/byte-writer.js';
import { ModuleWriter } from './binary/module-writer.js';
import type { SectionRange, WasmModule } from './binary/module-types.js';
import {
  EXTERNAL_KIND_NAMES,
  ExternalKind,
  SECTION_ORDER,
  SectionId,
  ValueType,
} from './binary/wasm-constants.js';
import { HOST_SUPPLIED_MODULE, MEMORY_IMPORT_NAME } from './host-supplied-imports.js';
import type { FunctionPlan } from './metering/analyse-function.js';
import { emitMeteredFunction } from './metering/emit-metered-function.js';
import { FUEL_IMPORT_NAME, METER_GLOBAL_COUNT, STACK_IMPORT_NAME } from './metering/meter-imports.js';
import { LINE_TABLE_SECTION } from '../../../host-api/abi/line-table.js';
import { ByteReader } from './binary/byte-reader.js';
import { CodeOffsets } from './code-offsets.js';
import { rewriteLineTable } from './rewrite-line-table.js';
import { rewriteNameSection } from './rewrite-name-section.js';

/** How every function is metered. */
export interface MeteringSettings {
  /** Metering plan of every defined function, in order. */
  readonly plans: readonly FunctionPlan[];
  /** Stack bytes each defined function reserves (see stackCharges). */
  readonly stackCharges: readonly number[];
  /** Which defined functions check fuel on return (see hostEntryPoints). */
  readonly checksOnReturn: readonly boolean[];
  /** Bulk memory operations cost 1 fuel per 2^bulkShift bytes. */
  readonly bulkShift: number;
}

export interface RewriteSettings {
  /** Absent writes the module unmetered: only for measuring what metering costs (bench/host). */
  readonly metering?: MeteringSettings;
  /** Maximum pages written for the memory (when the module has one). */
  readonly memoryMaximum: number;
}

/**
 * Writes the admitted module: the module's memory turned into an import of the host's with its
 * maximum capped, its mutable globals exported, and, when metered, the meter globals added to the
 * imports, global indices moved past them and every body metered. All other sections are copied
 * byte for byte, in place (the `name` section is adjusted to the moved indices, the line table
 * after the code to the moved code; one before the code is dropped, as its offsets cannot be
 * known yet).
 */
export function rewriteModule(module: WasmModule, settings: RewriteSettings): Uint8Array {
  const writer = new ModuleWriter(module.bytes.length * 2 + 256);
  const { out } = writer;
  const { metering } = settings;
  const globalShift = metering ? METER_GLOBAL_COUNT : 0;
  let codeOffsets: CodeOffsets | undefined;

  let importsWritten = false;
  let exportsWritten = false;
  for (const section of module.sections) {
    const order = SECTION_ORDER[section.id];
    if (!importsWritten && order !== undefined && order >= SECTION_ORDER[SectionId.import]!) {
      writer.section(SectionId.import, (w) => writeImports(w, module, settings));
      importsWritten = true;
      if (section.id === SectionId.import) continue;
    }
    if (!exportsWritten && order !== undefined && order >= SECTION_ORDER[SectionId.export]!) {
      writer.section(SectionId.export, (w) => writeExports(w, module, globalShift));
      exportsWritten = true;
      if (section.id === SectionId.export) continue;
    }
    if (section.id === SectionId.memory) continue; // imported instead
    if (metering && section.id === SectionId.code) {
      const offsets = new CodeOffsets();
      writer.section(SectionId.code, (w) => writeCode(w, module, metering, offsets));
      offsets.place(writer.lastContentStart);
      codeOffsets = offsets;
      continue;
    }
    if (metering && section.id === SectionId.custom && section.customName === LINE_TABLE_SECTION) {
      const table = codeOffsets && rewriteLineTable(lineTablePayload(module, section), codeOffsets);
      if (table !== undefined) writer.section(SectionId.custom, (w) => w.name(LINE_TABLE_SECTION).bytes(table));
      continue;
    }
    if (metering && section.id === SectionId.custom && section.customName === 'name') {
      const names = rewriteNameSection(module.bytes, section.start, section.end);
      if (names !== undefined) out.u8(SectionId.custom).u32(names.length).bytes(names);
      continue;
    }
    copySection(out, module, section);
  }
  if (!importsWritten) writer.section(SectionId.import, (w) => writeImports(w, module, settings));
  if (!exportsWritten) writer.section(SectionId.export, (w) => writeExports(w, module, globalShift));
  return writer.finish();
}

/** A custom section's bytes after its name. */
function lineTablePayload(module: WasmModule, section: SectionRange): Uint8Array {
  const r = new ByteReader(module.bytes, section.start, section.end);
  r.name();
  return module.bytes.subarray(r.offset, section.end);
}

function copySection(out: ByteWriter, module: WasmModule, section: SectionRange): void {
  out.u8(section.id).u32(section.end - section.start).copy(module.bytes, section.start, section.end);
}

function writeImports(w: ByteWriter, module: WasmModule, settings: RewriteSettings): void {
  const memories = module.memories.length;
  w.u32(module.imports.length + (settings.metering ? METER_GLOBAL_COUNT : 0) + memories);
  for (const entry of module.imports) {
    w.name(entry.module).name(entry.name).u8(ExternalKind.function).u32(entry.typeIndex);
  }
  if (settings.metering) {
    // Order fixes the global indices: FUEL_GLOBAL_INDEX, STACK_GLOBAL_INDEX.
    w.name(HOST_SUPPLIED_MODULE).name(FUEL_IMPORT_NAME).u8(ExternalKind.global).u8(ValueType.i64).u8(1);
    w.name(HOST_SUPPLIED_MODULE).name(STACK_IMPORT_NAME).u8(ExternalKind.global).u8(ValueType.i32).u8(1);
  }
  // The one memory (admission allows no more) keeps index 0: the module imports no other.
  for (const memory of module.memories) {
    w.name(HOST_SUPPLIED_MODULE).name(MEMORY_IMPORT_NAME).u8(ExternalKind.memory).u8(0x01).u32(memory.initial).u32(settings.memoryMaximum);
  }
}

/** `globalShift`: how far global indices moved (the meter globals come first when metered). */
function writeExports(w: ByteWriter, module: WasmModule, globalShift: number): void {
  const mutable = mutableGlobalIndices(module);
  w.u32(module.exports.length + mutable.length);
  for (const entry of module.exports) {
    const kind = EXTERNAL_KIND_NAMES.indexOf(entry.kind);
    w.name(entry.name).u8(kind).u32(kind === ExternalKind.global ? entry.index + globalShift : entry.index);
  }
  // Every mutable global is exported too, so the host can reset a reused instance exactly.
  for (const index of mutable) w.name(globalExportName(index)).u8(ExternalKind.global).u32(index + globalShift);
}

/** Indices (in the module's own global space) of its mutable globals. */
export function mutableGlobalIndices(module: WasmModule): number[] {
  return module.globals.flatMap((g, i) => (g.mutable ? [i] : []));
}

/** The export name under which admission exposes mutable global `index`. */
export function globalExportName(index: number): string {
  return `${RESERVED_EXPORT_PREFIX}global_${index}`;
}

/** Export names starting with this are added by admission; modules may not use it themselves. */
export const RESERVED_EXPORT_PREFIX = '__tsibase_';

function writeCode(w: ByteWriter, module: WasmModule, settings: MeteringSettings, offsets: CodeOffsets): void {
  const body = new ByteWriter();
  const size = new ByteWriter(5);
  w.u32(settings.plans.length);
  settings.plans.forEach((plan, i) => {
    const shape = { stackCharge: settings.stackCharges[i]!, checkOnReturn: settings.checksOnReturn[i]!, bulkShift: settings.bulkShift };
    // A body's place is known before it is written only up to the length of its size: copied
    // stretches are told relative to the body, then moved past the size once it is known.
    const told = offsets.count;
    emitMeteredFunction(module.bytes, plan, shape, body.reset(), offsets);
    offsets.shift(told, w.length + size.reset().u32(body.length).length);
    w.sized(body);
  });
}
