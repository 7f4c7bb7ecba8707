import { HOST_IMPORTS, type HostImportName } from '../../host-api/abi/imports.js';
import { Caller } from './host-state.js';
import { actionImports } from './host-imports/actions.js';
import { cryptoImports } from './host-imports/crypto.js';
import { eventImports } from './host-imports/events.js';
import type { HostFunction, ImportGroup } from './host-imports/import-group.js';
import { kvImports } from './host-imports/kv.js';
import { resultImports } from './host-imports/result.js';
import { subjectiveImports } from './host-imports/subjective.js';
import { systemImports } from './host-imports/system.js';

/** Every group's functions, acting through `caller`, in one object. */
function importTable(caller: Caller): ImportGroup {
  return Object.assign(
    resultImports(caller), actionImports(caller), kvImports(caller), eventImports(caller),
    subjectiveImports(caller), systemImports(caller), cryptoImports(caller),
  );
}

// Checked once, not per instance: the groups are the same code whatever the caller.
const missing = (Object.keys(HOST_IMPORTS) as HostImportName[]).filter((name) => !importTable(new Caller())[name]);
if (missing.length > 0) throw new Error(`host imports without an implementation: ${missing.join(', ')}`);

/** The `env` import object of one instance: every function of the host import table, acting through `caller`. */
export function linkHostImports(caller: Caller): Record<HostImportName, HostFunction> {
  return importTable(caller) as Record<HostImportName, HostFunction>;
}
