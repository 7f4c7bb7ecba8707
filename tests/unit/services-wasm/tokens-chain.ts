// The tokens service on an in-process chain, as the GraphQL tests of its /graphql use it: the
// accounts, auth-any, tokens and events services deployed, the token initialized, accounts
// created, and HTTP requests served through tokens' serveSys as the http service calls it.
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system/system-services.js';

export interface Reply { status: number; contentType: string; body: Uint8Array }

export interface TokensChain {
  readonly chain: TestChain;
  readonly tokens: SystemService;
  /** Serves one HTTP request to tokens.tsibase.localhost. */
  serve(method: string, target: string, contentType?: string, body?: string): Reply;
}

/** A new chain with the token initialized and `accounts` created (authenticated by auth-any). */
export async function openTokensChain(accounts: readonly string[]): Promise<TokensChain> {
  const loaded = await loadServices('accounts', 'auth-any', 'tokens', 'events');
  const chain = TestChain.open();
  for (const service of Object.values(loaded)) service.deploy(chain);
  loaded.accounts.call(chain, 'accounts', 'init', {});
  for (const name of accounts) loaded.accounts.call(chain, 'accounts', 'newAccount', { name, authService: 'auth-any', requireMatch: true });
  const tokens = loaded.tokens;
  tokens.call(chain, 'tokens', 'init', {});
  const serve = (method: string, target: string, contentType = '', body = ''): Reply => {
    const request = { host: 'tokens.tsibase.localhost', method, target, contentType, headers: [], body: new TextEncoder().encode(body) };
    return tokens.call(chain, 'http', 'serveSys', { request, socket: null, user: null }, { mode: 'rpc' }) as Reply;
  };
  return { chain, tokens, serve };
}
