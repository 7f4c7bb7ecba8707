import { hostImportTable, type AbiGeneration, type AnyHostImportName } from '../../host-api/abi/abi-generation.js';
import type { Caller } from './host-state.js';
import { actionImports } from './host-imports/actions.js';
import { cryptoImports } from './host-imports/crypto.js';
import { eventImports } from './host-imports/events.js';
import { handleKvImports } from './host-imports/handle-kv.js';
import { handleSystemImports } from './host-imports/handle-system.js';
import type { HostFunction, HostFunctionDefinition, ImportGroup } from './host-imports/import-group.js';
import { kvImports } from './host-imports/kv.js';
import { resultImports } from './host-imports/result.js';
import { subjectiveImports } from './host-imports/subjective.js';
import { systemImports } from './host-imports/system.js';

/** Every definition of each generation's table, by name (docs/host-abi.md §3, §12). */
const DEFINITIONS: Record<AbiGeneration, ImportGroup> = {
  'db-id': {
    ...resultImports, ...actionImports, ...kvImports, ...eventImports,
    ...subjectiveImports, ...systemImports, ...cryptoImports,
  },
  // The handle generation shares what both tables name alike, save the kv calls and sockets.
  handle: {
    ...resultImports, ...actionImports, ...subjectiveImports,
    clockTimeGet: systemImports.clockTimeGet, getRandom: systemImports.getRandom,
    ...handleKvImports, ...handleSystemImports,
  },
};

for (const abi of ['db-id', 'handle'] as const) {
  const missing = Object.keys(hostImportTable(abi)).filter((name) => !DEFINITIONS[abi][name as AnyHostImportName]);
  if (missing.length > 0) throw new Error(`${abi} host imports without an implementation: ${missing.join(', ')}`);
}

/**
 * The `env` import object of one instance: the host functions of generation `abi` its module
 * imports (`names`, as admission listed them), each made to act through `caller`. Only those are
 * made, so an instance's linking costs what its module uses, not the whole table.
 */
export function linkHostImports(caller: Caller, abi: AbiGeneration, names: readonly AnyHostImportName[]): Record<string, HostFunction> {
  const definitions = DEFINITIONS[abi];
  const env: Record<string, HostFunction> = {};
  for (const name of names) env[name] = (definitions[name] as HostFunctionDefinition)(caller);
  return env;
}
