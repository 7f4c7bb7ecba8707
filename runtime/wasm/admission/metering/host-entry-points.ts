import type { WasmModule } from '../binary/module-types.js';

/**
 * Defined functions the host or the engine can call directly: exports, the start function and,
 * when the table is exported, every function (any of them may then be reached from outside).
 * Only these check fuel on return, so a normal return to the host never leaves it negative, and
 * each reserves stack for itself, as every call from the host starts a new chain of frames.
 * Returns one flag per defined function.
 */
export function hostEntryPoints(module: WasmModule): boolean[] {
  const imported = module.imports.length;
  const tableExported = module.exports.some((e) => e.kind === 'table');
  const entries = module.functionTypes.map(() => tableExported);
  const mark = (index: number) => {
    if (index >= imported && index - imported < entries.length) entries[index - imported] = true;
  };
  for (const e of module.exports) if (e.kind === 'function') mark(e.index);
  if (module.start !== undefined) mark(module.start);
  return entries;
}
