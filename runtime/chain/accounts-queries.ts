import { accountNumberFromName, methodNumberFromName } from '../../host-api/names/index.js';
import { AccountArgs } from '../../host-api/types/native.js';
import type { ExecutionContext } from '../wasm/execution-context.js';

// The accounts service's answers the node itself asks for (login, the development-chain check),
// through an execution context the caller owns.

export const ACCOUNTS = accountNumberFromName('accounts');
const EXISTS = methodNumberFromName('exists');
const GET_AUTH_OF = methodNumberFromName('getAuthOf');

function callAccounts(ctx: ExecutionContext, method: bigint, account: bigint): Uint8Array {
  return ctx.runAction({ sender: 0n, service: ACCOUNTS, method, rawData: AccountArgs.pack({ account }) });
}

export function accountExists(ctx: ExecutionContext, account: bigint): boolean {
  return callAccounts(ctx, EXISTS, account)[0] === 1;
}

/** The auth service of an existing account. */
export function authServiceOf(ctx: ExecutionContext, account: bigint): bigint {
  const auth = callAccounts(ctx, GET_AUTH_OF, account);
  return new DataView(auth.buffer, auth.byteOffset, auth.byteLength).getBigUint64(0, true);
}
