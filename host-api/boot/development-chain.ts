// Whether a chain is a development chain (docs/system-services.md, "Secure and development
// chains"): a boot without an account key gives every account it creates the auth service
// auth-any, which approves any transaction, so anyone may act as root or a system service and,
// through them, as anyone (transact's runAs lets an account's auth service act for it). The
// test is made on the chain's state, so it holds for any node and any client.

/** root and the system services a boot creates: who controls these controls the chain. */
export const SYSTEM_ACCOUNTS: readonly string[] = [
  'root', 'transact', 'accounts', 'auth-sig', 'auth-any', 'verify-sig', 'setcode', 'producers', 'http',
];

/** The auth service that approves everything. */
export const OPEN_AUTH_SERVICE = 'auth-any';

/**
 * The system accounts anyone may act as, given each one's auth service (undefined for an account
 * the chain does not have). A development chain has some; a chain booted with a key has none.
 */
export function openSystemAccounts(authServiceOf: (account: string) => string | undefined): string[] {
  return SYSTEM_ACCOUNTS.filter((account) => authServiceOf(account) === OPEN_AUTH_SERVICE);
}

/** The GraphQL query (for the accounts service's /graphql) asking each system account's auth service. */
export function systemAccountsQuery(): string {
  return `{ ${SYSTEM_ACCOUNTS.map((account, i) => `a${i}: getAccount(account: "${account}") { authService }`).join(' ')} }`;
}

/** openSystemAccounts over the answer (`data`) to systemAccountsQuery. */
export function openSystemAccountsIn(data: Record<string, unknown>): string[] {
  return openSystemAccounts((account) => (data[`a${SYSTEM_ACCOUNTS.indexOf(account)}`] as { authService: string } | null)?.authService);
}
