import { methodNumberFromName } from '../../host-api/names/index.js';
import type { AnsweredCalls } from '../wasm/execution-context.js';
import { TRANSACT } from './transaction-processor.js';

// A development fork's auth bypass (docs/chain.md §9): transact asks an account's auth service
// to approve each top-level action and each runAs with a call of its checkAuthSys (§5); on a
// fork the host answers those calls itself with "approved" (nothing returned), so any account
// may act as any other without its keys. Only the Chain of a node that `tsibase dev --fork`
// starts is given it (ChainOptions.devFork): no configuration, admin request or peer sets it.

const CHECK_AUTH_SYS = methodNumberFromName('checkAuthSys');
const APPROVED = new Uint8Array(0);

export const authBypass: AnsweredCalls = (caller, action) => (caller === TRANSACT && action.method === CHECK_AUTH_SYS ? APPROVED : undefined);
