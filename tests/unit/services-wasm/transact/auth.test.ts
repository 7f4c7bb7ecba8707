// Top-level action authorization (docs/chain.md §5): off during boot; after finishBoot every action's
// sender is checked by its auth service (accounts::getAuthOf) with topActionReq, the first one
// with firstAuthFlag too, requester 0, no allowed actions and the transaction's claims.
// An auth service refuses by aborting or (newer psibase) by answering false. checkFirstAuth asks
// only about the first sender, read-only, runs nothing, and answers false on a false answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Transaction, accountNumberFromName as account, methodNumberFromName as method, transactionId } from '../../../../host-api/index.js';
import { TransactChain, assertFails, assertOk, type DecodedEvent } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

const CLAIMS = [{ service: account('verify-sig'), rawData: new Uint8Array([1, 2, 3]) }];

function summary(events: DecodedEvent[]) {
  return events.map((e) => (e.name === 'checked'
    ? { checked: e.data.sender, flags: e.data.flags, requester: e.data.requester, action: e.data.action, allowedActions: e.data.allowedActions, claims: e.data.claims }
    : { [e.name]: e.data.sender }));
}

test('before finishBoot nothing is authorized', () => {
  const result = t.push(t.transaction([t.action('alice', 'runner', 'record')], {}, CLAIMS));
  assertOk(result);
  assert.equal(summary(t.events(result)), [{ recorded: account('alice') }]);
});

test('after finishBoot each action is authorized by its sender\'s auth service, then runs', () => {
  t.finishBoot();
  const result = t.push(t.transaction([t.action('alice', 'runner', 'record'), t.action('bob', 'svc-a', 'record')], {}, CLAIMS));
  assertOk(result);
  assert.equal(summary(t.events(result)), [
    { checked: account('alice'), flags: 0x40000001, requester: 0n, action: { service: account('runner'), method: method('record') }, allowedActions: [], claims: CLAIMS },
    { recorded: account('alice') },
    { checked: account('bob'), flags: 0x00000001, requester: 0n, action: { service: account('svc-a'), method: method('record') }, allowedActions: [], claims: CLAIMS },
    { recorded: account('bob') },
  ]);
});

test('a refusing auth service aborts the whole transaction', () => {
  t.finishBoot();
  assertOk(t.call('alice', 'auth-test', 'refuse', { requests: [1] }));
  assertFails(t.push(t.transaction([t.action('alice', 'runner', 'record')])), 'auth-test refuses request 1');
});

test('a sender without an account cannot act once auth is on', () => {
  t.finishBoot();
  assertFails(t.push(t.transaction([t.action('dave', 'runner', 'record')])), 'account dave does not exist');
});

test('checkFirstAuth checks the transaction and its first sender (read-only) and runs nothing', () => {
  t.finishBoot();
  const packed = t.transaction([t.action('alice', 'runner', 'record'), t.action('bob', 'runner', 'record')], {}, CLAIMS);
  const check = () => t.call('carol', 'transact', 'checkFirstAuth', { id: transactionId(packed), transaction: Transaction.unpack(packed) });
  const result = check();
  assertOk(result);
  assert.is(result.value, true);
  assert.equal(summary(t.events(result)), [
    { checked: account('alice'), flags: 0x80000001, requester: 0n, action: { service: account('runner'), method: method('record') }, allowedActions: [], claims: CLAIMS },
  ]);
  // An auth service that aborts aborts the check too.
  assertOk(t.call('alice', 'auth-test', 'refuse', { requests: [1] }));
  assertFails(check(), 'auth-test refuses request 1');
  assertOk(t.call('alice', 'auth-test', 'refuse', { requests: [] }));
  assertOk(t.push(packed));
  assertFails(check(), 'duplicate transaction');
});

test('an auth service answering false: checkFirstAuth answers false, a transaction aborts with psibase\'s message', () => {
  t.finishBoot();
  assertOk(t.call('alice', 'accounts', 'setAuthServ', { authService: 'svc-b' }));
  const packed = t.transaction([t.action('alice', 'runner', 'record')]);
  const check = () => t.call('carol', 'transact', 'checkFirstAuth', { id: transactionId(packed), transaction: Transaction.unpack(packed) });
  assert.is(check().value, true);
  assertOk(t.call('svc-b', 'svc-b', 'denyAuth'));
  const denied = check();
  assertOk(denied);
  assert.is(denied.value, false);
  assertFails(t.push(packed), 'Authorization for alice -> runner::record failed');
});

test.run();
