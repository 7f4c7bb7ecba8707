import {
  HOST_IMPORTS,
  HOST_IMPORT_MODULE,
  isHostImportName,
  type HostImportName,
  type HostImportSignature,
} from '../../../../host-api/abi/imports.js';
import { AdmissionError } from '../admission-error.js';
import type { WasmModule } from '../binary/module-types.js';
import { valueTypeName } from '../binary/wasm-constants.js';

/**
 * Every import must be a host ABI function from `env` with one of its signatures; returns the
 * names used, each once, in import order.
 */
export function checkHostImports(module: WasmModule): HostImportName[] {
  const used = new Set<HostImportName>();
  for (const entry of module.imports) {
    const label = `${entry.module}.${entry.name}`;
    if (entry.module !== HOST_IMPORT_MODULE || !isHostImportName(entry.name)) {
      throw new AdmissionError('WASM_FORBIDDEN_IMPORT', `import ${label} is not part of the host ABI`);
    }
    const type = module.types[entry.typeIndex];
    if (type === undefined) throw new AdmissionError('WASM_INVALID', `import ${label} names missing type ${entry.typeIndex}`);
    const allowed: readonly HostImportSignature[] = HOST_IMPORTS[entry.name];
    const actual = formatSignature(type.params.map(valueTypeName), type.results.map(valueTypeName));
    if (!allowed.some((s) => formatSignature(s.params, s.results) === actual)) {
      const expected = allowed.map((s) => formatSignature(s.params, s.results)).join(' or ');
      throw new AdmissionError('WASM_FORBIDDEN_IMPORT', `import ${label} has signature ${actual} but the host ABI defines ${expected}`);
    }
    used.add(entry.name);
  }
  return [...used];
}

function formatSignature(params: readonly string[], results: readonly string[]): string {
  return `(${params.join(', ')}) -> ${results.length === 0 ? '()' : results.join(', ')}`;
}
