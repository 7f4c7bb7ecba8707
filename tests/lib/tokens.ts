// The tokens service as tests read it over HTTP from a real node.
import { generateKeyPair, systemAction, type KeyPair } from '../../host-api/index.js';
import type { ActionInput, ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { deployActions } from '../../host-api/boot/deploy-actions.js';
import { compiledService } from '../unit/services-wasm/program.js';

/**
 * The accounts the browser tests use: alice (auth-sig, the returned key) holding 100 tokens, bob
 * (auth-any), and the tokens service serving its subdomain; `more` actions go with the mint.
 */
export async function aliceWithTokens(client: ChainClient, more: readonly ActionInput[] = []): Promise<KeyPair> {
  const alice = generateKeyPair('P-256');
  await client.push([
    systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: alice.publicKey }),
    systemAction('root', 'accounts.newAccount', { name: 'bob', authService: 'auth-any', requireMatch: true }),
    ...deployActions('tokens', (await compiledService('tokens')).binary, { create: { insecure: true }, registerServer: true, init: true }),
  ], { waitFor: 'applied' });
  await client.push([
    { sender: 'tokens', service: 'tokens', method: 'mint', rawData: await client.packAction('tokens', 'mint', { to: 'alice', amount: '100' }) },
    ...more,
  ], { waitFor: 'applied' });
  return alice;
}

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
