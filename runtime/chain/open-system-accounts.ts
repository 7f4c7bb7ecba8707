import { openSystemAccounts } from '../../host-api/boot/index.js';
import { accountNameFromNumber, accountNumberFromName } from '../../host-api/names/index.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import { ExecutionContext } from '../wasm/execution-context.js';
import { readServiceCode } from '../wasm/service-code.js';
import { ACCOUNTS, accountExists, authServiceOf } from './accounts-queries.js';

/**
 * The system accounts of this chain that anyone may act as (a development chain's), read from
 * the accounts service in an RPC context; none on a chain without the accounts service.
 */
export function openSystemAccountsOf(store: Store, engine: Engine): string[] {
  if (!readServiceCode(store, ACCOUNTS)) return [];
  const ctx = new ExecutionContext({ mode: 'rpc', store, engine });
  try {
    return openSystemAccounts((name) => {
      const account = accountNumberFromName(name);
      return accountExists(ctx, account) ? accountNameFromNumber(authServiceOf(ctx, account)) : undefined;
    });
  } finally {
    ctx.dispose();
  }
}
