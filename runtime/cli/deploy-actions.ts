import { NO_ARGUMENTS, accountNumberFromName, methodNumberFromName, setSchemaAction, systemAction, type Action } from '../../host-api/index.js';

// The actions that install a service, shared by `tsibase deploy` and the benchmarks.

export interface DeployOptions {
  /** Create the account first if it is missing: with auth-any (`insecure`) or auth-sig and a key. */
  readonly create?: { readonly insecure: true } | { readonly key: Uint8Array };
  /** The existing account that creates it (default root). */
  readonly creator?: string;
  /** Serve the account's subdomain with its own serveSys. */
  readonly registerServer?: boolean;
  /** Run the service's init() action, sent by the account. */
  readonly init?: boolean;
  /** The service's schema (JSON text), stored with packages::setSchema. */
  readonly schema?: string | null;
}

export function deployActions(account: string, code: Uint8Array, options: DeployOptions = {}): Action[] {
  const creator = options.creator ?? 'root';
  const actions: Action[] = [];
  if (options.create && 'key' in options.create) {
    actions.push(systemAction(creator, 'auth-sig.newAccount', { name: account, key: options.create.key }));
  } else if (options.create) {
    actions.push(systemAction(creator, 'accounts.newAccount', { name: account, authService: 'auth-any', requireMatch: false }));
  }
  actions.push(systemAction(account, 'setcode.setCode', { service: account, vmType: 0, vmVersion: 0, code }));
  if (options.schema) actions.push(setSchemaAction(account, options.schema));
  if (options.registerServer) actions.push(systemAction(account, 'http.registerServer', { server: account }));
  if (options.init) {
    const number = accountNumberFromName(account);
    actions.push({ sender: number, service: number, method: methodNumberFromName('init'), rawData: NO_ARGUMENTS });
  }
  return actions;
}
