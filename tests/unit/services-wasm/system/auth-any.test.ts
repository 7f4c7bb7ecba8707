// auth-any approves every request of the auth interface; only the authSet cycle rule says no.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let authAny: SystemService;

test.before(async () => {
  ({ 'auth-any': authAny } = await loadServices('auth-any'));
  chain = TestChain.open();
  authAny.deploy(chain);
});

test.after(async () => {
  await chain.close();
});

const checkArgs = (flags: number) => ({
  flags, requester: '', sender: 'alice', action: { service: 'tokens', method: 'credit' }, allowedActions: [], claims: [],
});

test('checkAuthSys approves top-level actions and every kind of runAs, without claims', () => {
  for (const flags of [0x40000001, 0x00000001, 0x80000001, 2, 3, 4, 5]) {
    assert.is(authAny.run(chain, 'transact', 'checkAuthSys', checkArgs(flags)).error, undefined, `flags ${flags}`);
  }
});

test('canAuthUserSys accepts any account', () => {
  assert.is(authAny.run(chain, 'accounts', 'canAuthUserSys', { user: 'anyone' }).error, undefined);
});

test('isAuthSys and isRejectSys are true unless the sender is already in authSet', () => {
  for (const action of ['isAuthSys', 'isRejectSys']) {
    const others = action === 'isAuthSys' ? 'authorizers' : 'rejecters';
    const ask = (authSet: string[] | null) =>
      authAny.call(chain, 'x', action, { sender: 'alice', [others]: [], method: null, authSet }, { mode: 'rpc' });
    assert.is(ask(null), true, action);
    assert.is(ask(['bob']), true, action);
    assert.is(ask(['bob', 'alice']), false, action);
  }
});

test.run();
