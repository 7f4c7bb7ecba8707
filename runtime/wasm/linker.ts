import { HOST_IMPORTS, type HostImportName } from '../../host-api/abi/imports.js';
import type { Caller } from './host-state.js';
import { actionImports } from './host-imports/actions.js';
import { cryptoImports } from './host-imports/crypto.js';
import { eventImports } from './host-imports/events.js';
import type { HostFunction, HostFunctionDefinition, ImportGroup } from './host-imports/import-group.js';
import { kvImports } from './host-imports/kv.js';
import { resultImports } from './host-imports/result.js';
import { subjectiveImports } from './host-imports/subjective.js';
import { systemImports } from './host-imports/system.js';

/** Every group's definitions, by name. */
const DEFINITIONS: ImportGroup = {
  ...resultImports, ...actionImports, ...kvImports, ...eventImports,
  ...subjectiveImports, ...systemImports, ...cryptoImports,
};

const missing = (Object.keys(HOST_IMPORTS) as HostImportName[]).filter((name) => !DEFINITIONS[name]);
if (missing.length > 0) throw new Error(`host imports without an implementation: ${missing.join(', ')}`);

/**
 * The `env` import object of one instance: the host functions its module imports (`names`, as
 * admission listed them), each made to act through `caller`. Only those are made, so an
 * instance's linking costs what its module uses, not the whole table.
 */
export function linkHostImports(caller: Caller, names: readonly HostImportName[]): Record<string, HostFunction> {
  const env: Record<string, HostFunction> = {};
  for (const name of names) env[name] = (DEFINITIONS[name] as HostFunctionDefinition)(caller);
  return env;
}
