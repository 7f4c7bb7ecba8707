// The tokens service as tests read it over HTTP from a real node.
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';

/** `account`'s balance as the tokens service's /balance query reports it (JSON). */
export async function tokenBalance(api: string, account: string): Promise<unknown> {
  return (await httpRequest(serviceUrl(api, 'tokens', `/balance?account=${account}`))).json();
}

/** A tokens `mint` action as `tsibase push` reads it (sent by the token's own account). */
export function mintAction(to: string, amount: string) {
  return { sender: 'tokens', service: 'tokens', method: 'mint', data: { to, amount } };
}

/** A tokens `transfer` action as `tsibase push` reads it. */
export function transferAction(from: string, to: string, amount: string, memo = 'test') {
  return { sender: from, service: 'tokens', method: 'transfer', data: { to, amount, memo } };
}
