// The tokens service as tests read it over HTTP from a real node.
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';

/** `account`'s balance as the tokens service's /balance query reports it (JSON). */
export async function tokenBalance(api: string, account: string): Promise<unknown> {
  return (await httpRequest(serviceUrl(api, 'tokens', `/balance?account=${account}`))).json();
}
