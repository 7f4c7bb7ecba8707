import { abiGenerationOf, hostImportTable, type AbiGeneration, type AnyHostImportName } from '../../../../host-api/abi/abi-generation.js';
import { HOST_IMPORT_MODULE, type HostImportSignature } from '../../../../host-api/abi/imports.js';
import { AdmissionError } from '../admission-error.js';
import type { WasmModule } from '../binary/module-types.js';
import { valueTypeName } from '../binary/wasm-constants.js';

export interface HostImports {
  /** The ABI generation the module is written for (docs/host-abi.md §12.1). */
  readonly abi: AbiGeneration;
  /** The names used, each once, in import order. */
  readonly names: AnyHostImportName[];
}

const GENERATION_NOTE: Record<AbiGeneration, string> = {
  'db-id': '',
  handle: ' (the module imports kv handles, so it is held to the handle generation)',
};

/**
 * Decides the module's ABI generation from its imports, then checks that every import is a host
 * function of that generation from `env`, with one of its signatures.
 */
export function checkHostImports(module: WasmModule): HostImports {
  const abi = abiGenerationOf(module.imports);
  const table = hostImportTable(abi);
  const used = new Set<AnyHostImportName>();
  for (const entry of module.imports) {
    const label = `${entry.module}.${entry.name}`;
    if (entry.module !== HOST_IMPORT_MODULE || !Object.hasOwn(table, entry.name)) {
      throw new AdmissionError('WASM_FORBIDDEN_IMPORT', `import ${label} is not part of the host ABI${GENERATION_NOTE[abi]}`);
    }
    const type = module.types[entry.typeIndex];
    if (type === undefined) throw new AdmissionError('WASM_INVALID', `import ${label} names missing type ${entry.typeIndex}`);
    const allowed: readonly HostImportSignature[] = table[entry.name]!;
    const actual = formatSignature(type.params.map(valueTypeName), type.results.map(valueTypeName));
    if (!allowed.some((s) => formatSignature(s.params, s.results) === actual)) {
      const expected = allowed.map((s) => formatSignature(s.params, s.results)).join(' or ');
      throw new AdmissionError('WASM_FORBIDDEN_IMPORT', `import ${label} has signature ${actual} but the host ABI defines ${expected}${GENERATION_NOTE[abi]}`);
    }
    used.add(entry.name as AnyHostImportName);
  }
  return { abi, names: [...used] };
}

function formatSignature(params: readonly string[], results: readonly string[]): string {
  return `(${params.join(', ')}) -> ${results.length === 0 ? '()' : results.join(', ')}`;
}
