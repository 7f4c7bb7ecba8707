import { accountNumberFromName, methodNumberFromName } from '../../host-api/names/index.js';
import { AccountArgs } from '../../host-api/types/native.js';
import type { Executor } from '../wasm/executor.js';

// The accounts service's answers the node itself asks for (login, the development-chain check),
// as read-only RPC queries.

export const ACCOUNTS = accountNumberFromName('accounts');
const EXISTS = methodNumberFromName('exists');
const GET_AUTH_OF = methodNumberFromName('getAuthOf');

function callAccounts(executor: Executor, method: bigint, account: bigint): Uint8Array {
  return executor.call({ mode: 'rpc', target: { action: { sender: 0n, service: ACCOUNTS, method, rawData: AccountArgs.pack({ account }) } } });
}

export function accountExists(executor: Executor, account: bigint): boolean {
  return callAccounts(executor, EXISTS, account)[0] === 1;
}

/** The auth service of an existing account. */
export function authServiceOf(executor: Executor, account: bigint): bigint {
  const auth = callAccounts(executor, GET_AUTH_OF, account);
  return new DataView(auth.buffer, auth.byteOffset, auth.byteLength).getBigUint64(0, true);
}
