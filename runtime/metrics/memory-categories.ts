// Resident memory by category (perf report `memory`). The kernel's smaps gives the resident bytes
// of every mapping; what a mapping holds follows from what is mapped. The wasm figures come from
// the engine, because V8 places linear memories and compiled code in anonymous mappings that
// smaps cannot tell apart from the rest of the heap.

import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { countOf } from './counts.js';
import { readProcFile } from './proc-text.js';
import { parseSmaps, type Mapping } from './smaps.js';

/** The categories in the order of the report. */
export const MEMORY_CATEGORIES = ['database', 'code', 'data', 'wasmMemory', 'wasmCode', 'unclassified'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
/** Bytes per category. */
export type MemoryFigures = Record<MemoryCategory, bigint>;

/**
 * What the wasm engine holds, in bytes (see Engine.memoryFigures): the byte length of its linear
 * memories and an estimate of its compiled code. Neither is measured residency.
 */
export interface WasmMemoryFigures {
  readonly wasmMemory: number;
  readonly wasmCode: number;
}

/** Resident bytes by what the mappings hold; `other` is anonymous memory and everything else. */
export interface ResidentMemory {
  readonly database: bigint;
  readonly code: bigint;
  readonly data: bigint;
  readonly other: bigint;
}

/**
 * database: mappings of the given LMDB data files; code: executable mappings of files (the node
 * binary and shared libraries); data: the other mappings of those same files (constants,
 * relocations, initialised data); other: the rest, including other mapped files.
 */
export function classifyMappings(mappings: readonly Mapping[], databaseFiles: ReadonlySet<string>): ResidentMemory {
  // The node binary and the shared libraries: the files that are mapped executable.
  const objectFiles = new Set(mappings.filter((m) => m.path.startsWith('/') && m.perms[2] === 'x').map((m) => m.path));
  let database = 0n, code = 0n, data = 0n, other = 0n;
  for (const { perms, path, rss } of mappings) {
    if (databaseFiles.has(path)) database += rss;
    else if (objectFiles.has(path)) {
      if (perms[2] === 'x') code += rss;
      else data += rss;
    } else other += rss;
  }
  return { database, code, data, other };
}

/**
 * The report's categories: the wasm figures are taken out of `other`, where V8 keeps them, and
 * what remains is unclassified. The engine counts bytes it holds, not resident ones, so when they
 * exceed `other` unclassified is 0 (never negative) and the categories add up to more than Rss.
 */
export function memoryByCategory(resident: ResidentMemory, wasm: WasmMemoryFigures): MemoryFigures {
  const wasmMemory = countOf('wasmMemory', wasm.wasmMemory);
  const wasmCode = countOf('wasmCode', wasm.wasmCode);
  const rest = resident.other - wasmMemory - wasmCode;
  return {
    database: resident.database,
    code: resident.code,
    data: resident.data,
    wasmMemory,
    wasmCode,
    unclassified: rest > 0n ? rest : 0n,
  };
}

/** The path as smaps names it: symbolic links resolved (the file may not exist yet). */
function kernelPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * Resident memory of this process by mapping, from `<procDir>/smaps`. Without /proc (not Linux,
 * or hidden by a sandbox) the whole resident set of process.memoryUsage() is `other`.
 */
export function readResidentMemory(procDir: string, databaseFiles: readonly string[]): ResidentMemory {
  const source = join(procDir, 'smaps');
  const text = readProcFile(source);
  if (text === undefined) return { database: 0n, code: 0n, data: 0n, other: BigInt(process.memoryUsage.rss()) };
  return classifyMappings(parseSmaps(text, source), new Set(databaseFiles.map(kernelPath)));
}
