import { HANDLE_HOST_IMPORTS, type HandleImportName } from './handle-imports.js';
import { HOST_IMPORTS, HOST_IMPORT_MODULE, type HostImportName, type HostImportSignature } from './imports.js';

// The two generations of the host ABI a module may be written for (docs/host-abi.md §12.1): ours,
// where kv calls name a database by id (psibase up to v0.20), and psibase's current one, where they
// take handles. Admission decides once per module from what it imports.

export type AbiGeneration = 'db-id' | 'handle';

/** Any of these imports makes a module a handle-generation module: the handle calls, and the names only that generation has. */
export const HANDLE_ABI_MARKERS: readonly HandleImportName[] = [
  'kvOpen', 'kvOpenAt', 'kvClose', 'exportHandles', 'importHandles',
  'setMaxCpuTime', 'socketSetFlags', 'readFile', 'socketOpen',
];

export type AnyHostImportName = HostImportName | HandleImportName;

/** The generation of a module whose imports are `imports` (module, name). */
export function abiGenerationOf(imports: Iterable<{ readonly module: string; readonly name: string }>): AbiGeneration {
  for (const { module, name } of imports) {
    if (module === HOST_IMPORT_MODULE && (HANDLE_ABI_MARKERS as readonly string[]).includes(name)) return 'handle';
  }
  return 'db-id';
}

/** The import table of a generation, by name. */
export function hostImportTable(abi: AbiGeneration): Readonly<Record<string, readonly HostImportSignature[]>> {
  return abi === 'handle' ? HANDLE_HOST_IMPORTS : HOST_IMPORTS;
}
