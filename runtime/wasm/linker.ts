import { HOST_IMPORTS, type HostImportName } from '../../host-api/abi/imports.js';
import type { Caller } from './host-state.js';
import { actionImports } from './host-imports/actions.js';
import { cryptoImports } from './host-imports/crypto.js';
import { eventImports } from './host-imports/events.js';
import type { HostFunction, ImportGroup } from './host-imports/import-group.js';
import { kvImports } from './host-imports/kv.js';
import { resultImports } from './host-imports/result.js';
import { subjectiveImports } from './host-imports/subjective.js';
import { systemImports } from './host-imports/system.js';

/** The `env` import object of one instance: every function of the host import table, acting through `caller`. */
export function linkHostImports(caller: Caller): Record<HostImportName, HostFunction> {
  const table: ImportGroup = {
    ...resultImports(caller),
    ...actionImports(caller),
    ...kvImports(caller),
    ...eventImports(caller),
    ...subjectiveImports(caller),
    ...systemImports(caller),
    ...cryptoImports(caller),
  };
  for (const name of Object.keys(HOST_IMPORTS) as HostImportName[]) {
    if (!table[name]) throw new Error(`host import ${name} has no implementation`);
  }
  return table as Record<HostImportName, HostFunction>;
}
