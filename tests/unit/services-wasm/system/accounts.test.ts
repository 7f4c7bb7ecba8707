// accounts: init registers the genesis services, who may create accounts, name and auth
// service checks, setAuthServ, incAuthSeq, and the queries (in transactions and in RPC mode).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { accountNumberFromName, generateKeyPair } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let accounts: SystemService;
let authSig: SystemService;

test.before(async () => {
  let authAny: SystemService;
  ({ accounts, 'auth-any': authAny, 'auth-sig': authSig } = await loadServices('accounts', 'auth-any', 'auth-sig'));
  chain = TestChain.open();
  for (const service of [accounts, authAny, authSig]) service.deploy(chain);
});

test.after(async () => {
  await chain.close();
});

const n = accountNumberFromName;
const newAccount = (sender: string, name: string | bigint, authService: string, requireMatch = true) =>
  accounts.run(chain, sender, 'newAccount', { name, authService, requireMatch });
const getAccount = (name: string) => accounts.call(chain, 'x', 'getAccount', { name }, { mode: 'rpc' });
const getAuthOf = (account: string) => accounts.run(chain, 'x', 'getAuthOf', { account }, { mode: 'rpc' });
const authSequence = (name: string) => (getAccount(name) as { authSequence: bigint }).authSequence;
const exists = (name: string) => accounts.call(chain, 'x', 'exists', { name }, { mode: 'rpc' });

test('nothing works before init', () => {
  assert.match(newAccount('accounts', 'alice', 'auth-any').error ?? '', 'accounts is not initialized');
  assert.is(exists('accounts'), false);
});

test('init gives every account with code a row with auth service auth-sig; only once', () => {
  assert.is(accounts.run(chain, 'anyone', 'init', {}).error, undefined);
  for (const name of ['accounts', 'auth-any', 'auth-sig']) {
    assert.equal(getAccount(name), { accountNum: n(name), authService: n('auth-sig'), authSequence: 0n }, name);
    assert.is(getAuthOf(name).value, n('auth-sig'));
  }
  assert.match(accounts.run(chain, 'anyone', 'init', {}).error ?? '', 'accounts is already initialized');
});

test('an existing account creates an account with an auth service that accepts it', () => {
  const created = newAccount('accounts', 'alice', 'auth-any');
  assert.is(created.error, undefined);
  assert.is(created.value, true, 'newAccount answers that it created the account');
  assert.equal(getAccount('alice'), { accountNum: n('alice'), authService: n('auth-any'), authSequence: 0n });
  assert.is(getAuthOf('alice').value, n('auth-any'));
  assert.is(exists('alice'), true);
  assert.is(newAccount('alice', 'bob', 'auth-any').error, undefined, 'any existing account may create accounts');
  assert.is(exists('bob'), true);
});

test('an existing name is left as it is (false); with requireMatch another auth service aborts', () => {
  assert.match(newAccount('accounts', 'alice', 'auth-sig', true).error ?? '', 'account already exists');
  const sameService = newAccount('accounts', 'alice', 'auth-any', true);
  assert.is(sameService.error, undefined, 'the same auth service matches');
  assert.is(sameService.value, false);
  const otherService = newAccount('accounts', 'alice', 'auth-sig', false);
  assert.is(otherService.error, undefined);
  assert.is(otherService.value, false);
  assert.equal(getAccount('alice'), { accountNum: n('alice'), authService: n('auth-any'), authSequence: 0n });
});

test('the creator must exist, the name must be valid, the auth service known and willing', () => {
  assert.match(newAccount('nobody', 'carol', 'auth-any').error ?? '', 'only an existing account can create accounts');
  assert.match(newAccount('alice', 0n, 'auth-any').error ?? '', 'invalid account name');
  assert.match(newAccount('alice', 0x2an, 'auth-any').error ?? '', 'invalid account name', 'a subaccount byte without a name');
  assert.match(newAccount('alice', 0xffffffffffffff00n, 'auth-any').error ?? '', 'invalid account name', 'beyond the last name');
  assert.match(newAccount('alice', 'carol', 'no-such').error ?? '', 'unknown auth service');
  assert.match(newAccount('alice', 'carol', 'auth-sig').error ?? '', 'carol does not have a public key');
  assert.is(exists('carol'), false);
});

test('subaccounts are valid names', () => {
  assert.is(newAccount('alice', 'alice+1', 'auth-any').error, undefined);
  assert.is(exists('alice+1'), true);
});

test('setAuthServ changes the sender\'s own auth service when the service accepts it', () => {
  assert.match(accounts.run(chain, 'bob', 'setAuthServ', { authService: 'auth-sig' }).error ?? '', 'bob does not have a public key');
  assert.is(getAuthOf('bob').value, n('auth-any'));
  authSig.call(chain, 'bob', 'setKey', { key: generateKeyPair().publicKey });
  assert.is(accounts.run(chain, 'bob', 'setAuthServ', { authService: 'auth-sig' }).error, undefined);
  assert.is(getAuthOf('bob').value, n('auth-sig'));
  assert.is(authSequence('bob'), 1n, 'a new auth service is a change of the auth rules');
  assert.match(accounts.run(chain, 'bob', 'setAuthServ', { authService: 'no-such' }).error ?? '', 'unknown auth service');
  assert.match(accounts.run(chain, 'nobody', 'setAuthServ', { authService: 'auth-any' }).error ?? '', 'account nobody does not exist');
});

test('incAuthSeq counts a change of the account\'s rules when its own auth service sends it, else does nothing', () => {
  const before = authSequence('alice');
  assert.is(accounts.run(chain, 'auth-any', 'incAuthSeq', { name: 'alice' }).error, undefined);
  assert.is(authSequence('alice'), before + 1n);
  assert.is(accounts.run(chain, 'auth-any', 'incAuthSeq', { name: 'alice' }).error, undefined);
  assert.is(authSequence('alice'), before + 2n);
  for (const sender of ['auth-sig', 'alice', 'accounts']) {
    assert.is(accounts.run(chain, sender, 'incAuthSeq', { name: 'alice' }).error, undefined, sender);
  }
  assert.is(authSequence('alice'), before + 2n, 'not alice\'s auth service');
  assert.is(accounts.run(chain, 'auth-any', 'incAuthSeq', { name: 'nobody' }).error, undefined);
  assert.is(getAccount('nobody'), null, 'an unknown account stays unknown');
});

/** The store key and value of `name`'s row in the accounts table. */
function storedRow(name: string): { key: Uint8Array; value: Uint8Array } {
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, n('accounts'), false);
  for (let e = chain.store.greaterEqual(DbId.service, prefix, 8); e; e = chain.store.greaterEqual(DbId.service, Uint8Array.of(...e.key, 0), 8)) {
    if (e.value.length >= 10 && new DataView(e.value.buffer, e.value.byteOffset).getBigUint64(2, true) === n(name)) return e;
  }
  throw new Error(`no row of ${name}`);
}

test('a row written before authSequence (a chain booted with an earlier accounts) reads as 0 and takes the current form when it changes', () => {
  assert.is(newAccount('alice', 'olduser', 'auth-any').error, undefined);
  const { key } = storedRow('olduser');
  const old = new Uint8Array(18);
  const view = new DataView(old.buffer);
  view.setUint16(0, 16, true);
  view.setBigUint64(2, n('olduser'), true);
  view.setBigUint64(10, n('auth-any'), true);
  chain.store.put(DbId.service, key, old);
  chain.store.commit();
  assert.equal(getAccount('olduser'), { accountNum: n('olduser'), authService: n('auth-any'), authSequence: 0n });
  assert.is(getAuthOf('olduser').value, n('auth-any'));
  assert.is(exists('olduser'), true);
  assert.is(newAccount('alice', 'olduser', 'auth-any').value, false, 'it still exists for newAccount');
  assert.is(accounts.run(chain, 'auth-any', 'incAuthSeq', { name: 'olduser' }).error, undefined);
  assert.equal(getAccount('olduser'), { accountNum: n('olduser'), authService: n('auth-any'), authSequence: 1n });
  assert.is(new DataView(storedRow('olduser').value.buffer, storedRow('olduser').value.byteOffset).getUint16(0, true), 24, 'written in the current form');
});

test('queries: unknown accounts', () => {
  assert.is(getAccount('nobody'), null);
  assert.is(exists('nobody'), false);
  assert.match(getAuthOf('nobody').error ?? '', 'account nobody does not exist');
});

test('the queries answer inside transactions too', () => {
  assert.is(accounts.call(chain, 'x', 'getAuthOf', { account: 'alice' }), n('auth-any'));
  assert.is(accounts.call(chain, 'x', 'exists', { name: 'alice' }), true);
});

test('changes need a transaction: RPC mode cannot write', () => {
  assert.ok(accounts.run(chain, 'alice', 'newAccount', { name: 'dave', authService: 'auth-any', requireMatch: true }, { mode: 'rpc' }).error);
  assert.is(exists('dave'), false);
});

test.run();
