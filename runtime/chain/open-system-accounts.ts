import { openSystemAccounts } from '../../host-api/boot/index.js';
import { accountNameFromNumber, accountNumberFromName } from '../../host-api/names/index.js';
import type { Executor } from '../wasm/executor.js';
import { readServiceCode } from '../wasm/service-code.js';
import { ACCOUNTS, accountExists, authServiceOf } from './accounts-queries.js';

/**
 * The system accounts of this chain that anyone may act as (a development chain's), read from
 * the accounts service; none on a chain without the accounts service.
 */
export function openSystemAccountsOf(executor: Executor): string[] {
  if (!readServiceCode(executor.store, ACCOUNTS)) return [];
  return openSystemAccounts((name) => {
    const account = accountNumberFromName(name);
    return accountExists(executor, account) ? accountNameFromNumber(authServiceOf(executor, account)) : undefined;
  });
}
