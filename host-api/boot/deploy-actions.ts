import { accountNumberFromName, methodNumberFromName } from '../names/index.js';
import { NO_ARGUMENTS, type Action } from '../types/index.js';
import { setSchemaAction, systemAction } from './system-actions.js';

// The actions that install a service, shared by `tsibase deploy`, TestChain's deploy and the benchmarks.

export interface DeployOptions {
  /** Create the account first if it is missing: with auth-any (`insecure`) or auth-sig and a key. */
  readonly create?: NewAccountAuth;
  /** The existing account that creates it (default root). */
  readonly creator?: string;
  /** Serve the account's subdomain with its own serveSys. */
  readonly registerServer?: boolean;
  /** Run the service's init() action, sent by the account. */
  readonly init?: boolean;
  /** The service's schema (JSON text), stored with packages::setSchema. */
  readonly schema?: string | null;
}

/** How a new account authenticates: auth-any (`insecure`, development chains) or auth-sig and a key. */
export type NewAccountAuth = { readonly insecure: true } | { readonly key: Uint8Array };

/** `creator` creates `account`, authenticated as `auth` says. */
export function newAccountAction(creator: string, account: string, auth: NewAccountAuth): Action {
  return 'key' in auth
    ? systemAction(creator, 'auth-sig.newAccount', { name: account, key: auth.key })
    : systemAction(creator, 'accounts.newAccount', { name: account, authService: 'auth-any', requireMatch: false });
}

export function deployActions(account: string, code: Uint8Array, options: DeployOptions = {}): Action[] {
  const actions: Action[] = options.create ? [newAccountAction(options.creator ?? 'root', account, options.create)] : [];
  actions.push(systemAction(account, 'setcode.setCode', { service: account, vmType: 0, vmVersion: 0, code }));
  if (options.schema) actions.push(setSchemaAction(account, options.schema));
  if (options.registerServer) actions.push(systemAction(account, 'http.registerServer', { server: account }));
  if (options.init) {
    const number = accountNumberFromName(account);
    actions.push({ sender: number, service: number, method: methodNumberFromName('init'), rawData: NO_ARGUMENTS });
  }
  return actions;
}
