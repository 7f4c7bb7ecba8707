// auth-delg: an account authenticated as its owner. setOwner (cycles refused, incAuthSeq),
// newAccount and its requireMatch, getOwner, checkAuthSys forwarded to the owner's own auth
// service (auth-sig with real keys, auth-any), canAuthUserSys, isAuthSys/isRejectSys, getDlgsSys.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, generateKeyPair } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let services: Record<'accounts' | 'auth-any' | 'auth-sig' | 'auth-delg', SystemService>;
let authDelg: SystemService;

const n = accountNumberFromName;
const alice = generateKeyPair('P-256');
const TOP = 1;
const RUN_AS_OTHER = 5;
const READ_ONLY_TOP = 0x80000001;

test.before(async () => {
  services = await loadServices('accounts', 'auth-any', 'auth-sig', 'auth-delg');
  authDelg = services['auth-delg'];
  chain = TestChain.open();
  for (const service of Object.values(services)) service.deploy(chain);
  services.accounts.call(chain, 'accounts', 'init', {});
  services['auth-sig'].call(chain, 'accounts', 'newAccount', { name: 'alice', key: alice.publicKey });
  services.accounts.call(chain, 'accounts', 'newAccount', { name: 'bob', authService: 'auth-any', requireMatch: true });
});

test.after(async () => {
  await chain.close();
});

const getAccount = (name: string) => services.accounts.call(chain, 'x', 'getAccount', { name }, { mode: 'rpc' }) as
  { authService: bigint; authSequence: bigint } | null;
const getOwner = (owner: string) => authDelg.run(chain, 'x', 'getOwner', { owner }, { mode: 'rpc' });
const newAccount = (sender: string, name: string, owner: string, requireMatch: boolean) =>
  authDelg.run(chain, sender, 'newAccount', { name, owner, requireMatch });
const checkAuth = (flags: number, requester: string, sender: string, claims: { service: string; rawData: Uint8Array }[]) =>
  authDelg.run(chain, 'transact', 'checkAuthSys', {
    flags, requester, sender, action: { service: 'tokens', method: 'credit' }, allowedActions: [], claims,
  });
const aliceClaim = { service: 'verify-sig', rawData: alice.publicKey };

test('newAccount creates an account that auth-delg authenticates, owned by the given owner', () => {
  const created = newAccount('bob', 'carol', 'alice', true);
  assert.is(created.error, undefined);
  assert.is(created.value, true);
  assert.equal(getAccount('carol'), { accountNum: n('carol'), authService: n('auth-delg'), authSequence: 0n });
  assert.is(getOwner('carol').value, n('alice'));
});

test('newAccount: an existing name is left as it is, and with requireMatch must match', () => {
  assert.is(newAccount('bob', 'carol', 'alice', true).value, false, 'same owner');
  assert.is(newAccount('bob', 'carol', 'bob', false).value, false, 'another owner without requireMatch');
  assert.is(getOwner('carol').value, n('alice'));
  assert.match(newAccount('bob', 'carol', 'bob', true).error ?? '', 'carol is owned by alice');
  assert.match(newAccount('bob', 'alice', 'bob', true).error ?? '', 'account already exists', 'alice uses auth-sig');
  assert.is(newAccount('bob', 'alice', 'bob', false).value, false);
  assert.is(getAccount('alice')!.authService, n('auth-sig'));
});

test('newAccount: the creator and the owner must exist', () => {
  assert.match(newAccount('nobody', 'dave', 'alice', true).error ?? '', 'only an existing account can create accounts');
  assert.match(newAccount('bob', 'dave', 'nobody', true).error ?? '', 'owner account does not exist');
  assert.is(getAccount('dave'), null);
});

test('getOwner: an account without an owner aborts', () => {
  assert.match(getOwner('bob').error ?? '', 'bob does not have an owning account');
  assert.match(getOwner('nobody').error ?? '', 'nobody does not have an owning account');
});

test('checkAuthSys asks the owner\'s auth service about the owner: auth-sig wants the owner\'s claim', () => {
  const ok = checkAuth(TOP, '', 'carol', [aliceClaim]);
  assert.is(ok.error, undefined);
  assert.is(ok.value, true);
  assert.match(checkAuth(TOP, '', 'carol', []).error ?? '', 'the key needed to authenticate sender alice');
  assert.is(checkAuth(READ_ONLY_TOP, '', 'carol', []).value, false, 'the owner\'s false answer');
});

test('checkAuthSys: a runAs by the owner is the owner acting; by anyone else it is not', () => {
  assert.is(checkAuth(RUN_AS_OTHER, 'alice', 'carol', []).value, true);
  assert.match(checkAuth(RUN_AS_OTHER, 'bob', 'carol', []).error ?? '', 'runAs: caller is not authorized');
});

test('setOwner: cycles are refused, and a change tells accounts (incAuthSeq)', () => {
  assert.match(authDelg.run(chain, 'carol', 'setOwner', { owner: 'carol' }).error ?? '', 'circular ownership');
  assert.match(authDelg.run(chain, 'alice', 'setOwner', { owner: 'carol' }).error ?? '', 'circular ownership', 'alice owns carol');
  assert.is(getAccount('alice')!.authSequence, 0n);
  assert.is(authDelg.run(chain, 'carol', 'setOwner', { owner: 'bob' }).error, undefined);
  assert.is(getOwner('carol').value, n('bob'));
  assert.is(getAccount('carol')!.authSequence, 1n);
});

test('checkAuthSys: an owner on auth-any (which answers nothing) approves', () => {
  const result = checkAuth(TOP, '', 'carol', []);
  assert.is(result.error, undefined);
  assert.is(result.value, true);
});

test('setOwner from an account on another auth service files the owner; its sequence stays', () => {
  assert.is(authDelg.run(chain, 'alice', 'setOwner', { owner: 'bob' }).error, undefined);
  assert.is(getOwner('alice').value, n('bob'));
  assert.is(getAccount('alice')!.authSequence, 0n);
});

test('canAuthUserSys: only accounts with an owner, so setAuthServ(auth-delg) needs setOwner first', () => {
  assert.is(authDelg.run(chain, 'accounts', 'canAuthUserSys', { user: 'carol' }).error, undefined);
  assert.match(authDelg.run(chain, 'accounts', 'canAuthUserSys', { user: 'bob' }).error ?? '', 'bob does not have an owning account');
  assert.match(services.accounts.run(chain, 'bob', 'setAuthServ', { authService: 'auth-delg' }).error ?? '', 'bob does not have an owning account');
});

test('isAuthSys, isRejectSys: the owner, never when the account is in authSet; getDlgsSys: [owner]', () => {
  for (const [action, others] of [['isAuthSys', 'authorizers'], ['isRejectSys', 'rejecters']] as const) {
    const ask = (list: string[], authSet: string[] | null) =>
      authDelg.call(chain, 'x', action, { sender: 'carol', [others]: list, method: null, authSet }, { mode: 'rpc' });
    assert.is(ask(['alice', 'bob'], null), true, action);
    assert.is(ask(['alice', 'carol'], null), false, action);
    assert.is(ask(['bob'], ['carol']), false, action);
  }
  assert.equal(authDelg.call(chain, 'x', 'getDlgsSys', { sender: 'carol' }, { mode: 'rpc' }), [n('bob')]);
});

test.run();
