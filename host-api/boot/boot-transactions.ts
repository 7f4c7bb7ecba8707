import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { TsibaseError } from '../errors.js';
import { accountNumberFromName } from '../names/index.js';
import { Action, GenesisActionData, SignedTransaction, SignedTransactionList, Transaction } from '../types/index.js';
import type { Bundle } from './bundle.js';
import { embeddedSchema } from './service-schema.js';
import { setSchemaAction, systemAction } from './system-actions.js';

// The boot sequence of docs/chain.md §4 built from a bundle: genesis, the transact/producers
// transaction, startBoot with the ids of everything after it, then accounts, code, flags,
// HTTP registrations, site files, schemas and init actions in transactions of at most ~1 MiB, and
// finishBoot last. With an account key every account the boot creates authenticates with
// auth-sig and that key (a secure chain); without one, with auth-any (a development chain, where
// anyone may act as any of them).

export interface BootOptions {
  /** The producer of the new chain. */
  producer: string;
  /**
   * The public key (DER SubjectPublicKeyInfo) every account the boot creates authenticates with,
   * through auth-sig. Without it they use auth-any: a development chain.
   */
  accountKey?: Uint8Array;
  /** The public key (DER) the producer signs its blocks with (a verify-sig claim); unsigned blocks without it. */
  blockKey?: Uint8Array;
  /** Seconds since 1970 used for expirations (now + 120 s). */
  now?: number;
  /** Largest packed transaction the boot creates. */
  maxTransactionBytes?: number;
  /**
   * SHA-256 for startBoot's ids of the later transactions (a bundle's worth of bytes): a node
   * passes its native one; @noble/hashes' by default, which runs anywhere and gives the same bytes.
   */
  sha256?: (data: Uint8Array) => Uint8Array;
}

export interface BootTransactions {
  /** Body of POST /native/admin/push_boot (fracpack List<SignedTransaction>). */
  pushBoot: Uint8Array;
  /** Packed SignedTransactions to push in order afterwards (push_transaction). */
  later: Uint8Array[];
}

const ONE_MIB = 1024 * 1024;

function transaction(actions: Action[], expiration: bigint): Uint8Array {
  return Transaction.pack({ tapos: { expiration, refBlockSuffix: 0, flags: 0, refBlockIndex: 0 }, actions, claims: [] });
}

/** The claim a block key gives the producer: blocks signed for verify-sig, or none at all. */
function producerClaim(blockKey: Uint8Array | undefined): { service: string | bigint; rawData: Uint8Array } {
  return blockKey ? { service: 'verify-sig', rawData: blockKey } : { service: 0n, rawData: new Uint8Array(0) };
}

function unsigned(packedTransaction: Uint8Array): SignedTransaction {
  return { transaction: packedTransaction, proofs: [], subjectiveData: null };
}

/**
 * Groups actions into transactions of at most `limit` packed bytes, in order. A transaction's
 * actions are a fracpack list: each action adds its packed bytes and its 4-byte offset, so a
 * batch's size is counted as it grows instead of packing every candidate.
 */
function batches(actions: Action[], expiration: bigint, limit: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let current: Action[] = [];
  let size = 0;
  for (const action of actions) {
    const grown = size + Action.pack(action).length + 4;
    if (current.length === 0 || grown > limit) {
      if (current.length > 0) out.push(transaction(current, expiration));
      current = [action];
      size = transaction(current, expiration).length;
    } else {
      current.push(action);
      size = grown;
    }
  }
  if (current.length) out.push(transaction(current, expiration));
  return out;
}

export function bootTransactions(bundle: Bundle, options: BootOptions): BootTransactions {
  const expiration = BigInt((options.now ?? Math.floor(Date.now() / 1000)) + 120);
  const limit = options.maxTransactionBytes ?? ONE_MIB;
  const has = (name: string) => bundle.services.some((s) => s.account === accountNumberFromName(name));
  const { accountKey, blockKey, sha256 = nobleSha256 } = options;
  const authService = accountKey ? 'auth-sig' : 'auth-any';
  for (const [key, service, option] of [[accountKey, authService, '--account-key'], [blockKey, 'verify-sig', '--block-key']] as const) {
    if (key && !has(service)) throw new TsibaseError('BOOT_MISSING_SERVICE', `${option} needs the bundle to hold the '${service}' service`);
  }
  const genesisServices = bundle.services.filter((s) => s.genesis);
  const others = bundle.services.filter((s) => !s.genesis);

  const genesis = transaction([{
    sender: 0n,
    service: 0n,
    method: 0n, // by convention sender, service and method of the genesis action are 0
    rawData: GenesisActionData.pack({
      memo: 'tsibase boot',
      services: genesisServices.map((s) => ({ service: s.account, flags: s.flags, vmType: 0, vmVersion: 0, code: s.code })),
    }),
  }], expiration);

  const transact = bundle.services.find((s) => s.account === accountNumberFromName('transact'));
  const second: Action[] = [];
  if (transact?.server !== null && transact?.server !== undefined && has('http')) {
    second.push(systemAction('transact', 'http.registerServer', { server: transact.server }));
  }
  second.push(...(transact?.initActions ?? []));
  second.push(systemAction('producers', 'producers.setProducers', {
    prods: [{ name: options.producer, auth: producerClaim(blockKey) }],
  }));

  // While auth is off every action may name any sender: each account sets its own key.
  const setKey = (account: string | bigint) => (accountKey ? [systemAction(account, 'auth-sig.setKey', { key: accountKey })] : []);
  const newAccount = (account: string | bigint, requireMatch: boolean) => [
    ...setKey(account), // auth-sig accepts an account (canAuthUserSys) only once it has a key
    systemAction('accounts', 'accounts.newAccount', { name: account, authService, requireMatch }),
  ];
  const rest: Action[] = [];
  if (has('accounts')) {
    // accounts::init registers the genesis services with auth-sig and no key (locked): give
    // them the key, or the development chain's auth-any, while auth is still off.
    rest.push(systemAction('accounts', 'accounts.init'));
    for (const s of genesisServices) {
      rest.push(...(accountKey ? setKey(s.account) : [systemAction(s.account, 'accounts.setAuthServ', { authService })]));
    }
  }
  for (const s of others) rest.push(...newAccount(s.account, true));
  for (const s of others) {
    rest.push(systemAction(s.account, 'setcode.setCode', { service: s.account, vmType: 0, vmVersion: 0, code: s.code }));
    if (s.flags !== 0n) rest.push(systemAction('setcode', 'setcode.setFlags', { service: s.account, flags: s.flags }));
  }
  for (const s of bundle.services) {
    // Registrations and files need the http and sites services; a bundle without them has none.
    if (s.server !== null && has('http') && s.account !== accountNumberFromName('transact')) {
      rest.push(systemAction(s.account, 'http.registerServer', { server: s.server }));
    }
    if (has('sites')) for (const f of s.files) rest.push(systemAction(s.account, 'sites.storeSys', f));
  }
  // Each service stores the schema its build embedded (packages::setSchema), as psibase's boot
  // installs the system services' schemas.
  if (has('packages')) {
    for (const s of bundle.services) {
      const schema = embeddedSchema(s.code);
      if (schema !== null) rest.push(setSchemaAction(s.account, schema));
    }
  }
  for (const s of others) rest.push(...s.initActions);
  for (const account of new Set([options.producer, 'root'])) rest.push(...newAccount(account, false));
  const later = batches(rest, expiration, limit);
  later.push(transaction([systemAction('transact', 'transact.finishBoot')], expiration));

  const startBoot = transaction([
    systemAction('transact', 'transact.startBoot', { bootTransactions: later.map((t) => sha256(t)) }),
  ], expiration);

  return {
    pushBoot: SignedTransactionList.pack([genesis, transaction(second, expiration), startBoot].map(unsigned)),
    later: later.map((t) => SignedTransaction.pack(unsigned(t))),
  };
}
