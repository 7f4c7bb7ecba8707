// bootTransactions with keys (docs/system-services.md, "Secure and development chains"): the
// producer's claim carries the block key, every created account sets the account key before
// auth is on, and a key whose service the bundle lacks is refused by name. (A boot with keys on a
// real node: tests/integration/node/secure-chain.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Action, SignedTransaction, SignedTransactionList, Transaction, TsibaseError, accountNumberFromName, bootTransactions,
  CORE_SCHEMA, bytesToHex, compileSchema, generateKeyPair, methodNumberFromName, unpackBundle, packBundle, type Bundle,
} from '../../../../host-api/index.js';
import { assertFails } from '../../../lib/assert-error.js';

const service = (account: string, genesis: boolean) => ({ account, flags: 0n, code: Uint8Array.of(0, 0x61, 0x73, 0x6d), genesis, server: null, initActions: [], files: [] });

function bundleOf(accounts: string[]): Bundle {
  return unpackBundle(packBundle({ services: accounts.map((a) => service(a, a !== 'sites')) }));
}

const FULL = ['transact', 'accounts', 'auth-any', 'auth-sig', 'verify-sig', 'setcode', 'producers', 'http', 'sites'];

/** Every action of the boot, in order. */
function actionsOf(boot: ReturnType<typeof bootTransactions>): Action[] {
  const first = SignedTransactionList.unpack(boot.pushBoot).map((t) => t.transaction);
  const later = boot.later.map((t) => SignedTransaction.unpack(t).transaction);
  return [...first, ...later].flatMap((packed) => Transaction.unpack(packed).actions);
}

const NEW_ACCOUNT = compileSchema(CORE_SCHEMA).typeOf({ Object: { name: 'AccountNumber', authService: 'AccountNumber', requireMatch: 'bool' } });

const is = (a: Action, service: string, method: string) => a.service === accountNumberFromName(service) && a.method === methodNumberFromName(method);

test('with an account key every created account sets it, and the new ones are created with auth-sig', () => {
  const key = generateKeyPair().publicKey;
  const actions = actionsOf(bootTransactions(bundleOf(FULL), { producer: 'prod', accountKey: key }));
  const keyed = new Set(actions.filter((a) => is(a, 'auth-sig', 'setKey')).map((a) => a.sender));
  for (const account of [...FULL, 'prod', 'root']) assert.ok(keyed.has(accountNumberFromName(account)), `${account} sets the key`);
  assert.ok(actions.every((a) => !is(a, 'accounts', 'setAuthServ')), 'no account moves to another auth service');
  const created = actions.filter((a) => is(a, 'accounts', 'newAccount'));
  assert.is(created.length, 3); // sites, prod, root
  for (const a of created) assert.is((NEW_ACCOUNT.unpack(a.rawData) as { authService: bigint }).authService, accountNumberFromName('auth-sig'));
});

test('without keys every account uses auth-any and the producer signs nothing', () => {
  const actions = actionsOf(bootTransactions(bundleOf(FULL), { producer: 'prod' }));
  assert.ok(actions.every((a) => !is(a, 'auth-sig', 'setKey')));
  const moved = actions.filter((a) => is(a, 'accounts', 'setAuthServ'));
  assert.is(moved.length, FULL.length - 1); // every genesis service
  const setProducers = actions.find((a) => is(a, 'producers', 'setProducers'))!;
  const blockKey = generateKeyPair().publicKey;
  const signed = actionsOf(bootTransactions(bundleOf(FULL), { producer: 'prod', blockKey })).find((a) => is(a, 'producers', 'setProducers'))!;
  assert.ok(bytesToHex(signed.rawData).includes(bytesToHex(blockKey)), 'the block key is the producer\'s claim');
  assert.not.ok(bytesToHex(setProducers.rawData).includes(bytesToHex(blockKey)));
});

test('a key whose service the bundle lacks is refused, naming the option and the service', () => {
  const key = generateKeyPair().publicKey;
  assertFails(() => bootTransactions(bundleOf(FULL.filter((a) => a !== 'auth-sig')), { producer: 'prod', accountKey: key }), TsibaseError, 'BOOT_MISSING_SERVICE', ["--account-key needs the bundle to hold the 'auth-sig' service"]);
  assertFails(() => bootTransactions(bundleOf(FULL.filter((a) => a !== 'verify-sig')), { producer: 'prod', blockKey: key }), TsibaseError, 'BOOT_MISSING_SERVICE', ["--block-key needs the bundle to hold the 'verify-sig' service"]);
});

test.run();
