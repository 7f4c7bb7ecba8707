// Callbacks (docs/administration.md §4.3): only transact registers them; objective ones (sender transact)
// run after every transaction's actions (onTransaction) or at endBlock (onBlock) and abort the
// transaction or the block when they fail; subjective ones (no sender) go to the native notify row
// of their type; each is registered once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { notifyKey } from '../../../../host-api/abi/keys.js';
import { Action, accountNumberFromName as account } from '../../../../host-api/index.js';
import { NotifyRow } from '../../../../host-api/types/native.js';
import { TransactChain, assertFails, assertOk } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

const ON_TRANSACTION = 0;
const ON_BLOCK = 1;

const add = (type: number, objective: boolean, act: Action, sender = 'transact') => t.call(sender, 'transact', 'addCallback', { type, objective, act });
const remove = (type: number, objective: boolean, act: Action) => t.call('transact', 'transact', 'removeCallback', { type, objective, act });

/** The actions of the notify row of `type`, packed (so they compare as bytes). */
function notifyActions(type: number): Uint8Array[] | undefined {
  const row = t.chain.store.get(DbId.native, notifyKey(type));
  if (!row) return undefined;
  const notify = NotifyRow.unpack(row);
  assert.is(notify.type, type);
  return notify.actions.map((a) => new Uint8Array(Action.pack(a)));
}

const packed = (...actions: Action[]) => actions.map((a) => new Uint8Array(Action.pack(a)));

test('only transact registers callbacks, each with the sender its kind requires', () => {
  const objective = t.action('transact', 'runner', 'record');
  const subjective = t.action(0n, 'runner', 'record');
  assertFails(add(ON_TRANSACTION, true, objective, 'alice'), 'sender must be transact');
  assertFails(t.call('alice', 'transact', 'removeCallback', { type: ON_TRANSACTION, objective: true, act: objective }), 'sender must be transact');
  assertFails(add(ON_TRANSACTION, true, t.action('alice', 'runner', 'record')), 'objective callback must have transact as sender');
  assertFails(add(ON_TRANSACTION, true, subjective), 'objective callback must have transact as sender');
  assertFails(add(ON_BLOCK, false, objective), 'subjective callback must have no sender');
  assertFails(add(2, false, subjective), 'unknown callback type');
});

test('objective onTransaction callbacks run after the actions, once each however often added', () => {
  const callback = t.action('transact', 'svc-a', 'record');
  assertOk(add(ON_TRANSACTION, true, callback));
  assertOk(add(ON_TRANSACTION, true, callback));
  const result = t.push(t.transaction([t.action('alice', 'runner', 'record')]));
  assertOk(result);
  assert.equal(t.events(result).map((e) => [e.service, e.data.sender]), [['runner', account('alice')], ['svc-a', account('transact')]]);
  assertOk(remove(ON_TRANSACTION, true, callback));
  const after = t.push(t.transaction([t.action('alice', 'runner', 'record')]));
  assert.equal(t.events(after).map((e) => e.service), ['runner']);
  assertFails(remove(ON_TRANSACTION, true, callback), 'callback not found');
});

test('a failing objective callback aborts the transaction', () => {
  assertOk(add(ON_TRANSACTION, true, t.action('transact', 'runner', 'fail')));
  assertFails(t.push(t.transaction([t.action('alice', 'runner', 'record')])), 'runner fails on request');
});

test('objective onBlock callbacks run at endBlock, which only native code calls, and not in transactions', () => {
  const callback = t.action('transact', 'svc-b', 'record');
  assertOk(add(ON_BLOCK, true, callback));
  assertOk(add(ON_BLOCK, true, callback));
  const trx = t.push(t.transaction([t.action('alice', 'runner', 'record')]));
  assert.equal(t.events(trx).map((e) => e.service), ['runner']);
  const end = t.call(0n, 'transact', 'endBlock');
  assertOk(end);
  assert.equal(t.events(end).map((e) => [e.service, e.data.sender]), [['svc-b', account('transact')]]);
  assertFails(t.call('alice', 'transact', 'endBlock'), 'only native code may call endBlock');
  assertOk(remove(ON_BLOCK, true, callback));
  assert.equal(t.events(t.call(0n, 'transact', 'endBlock')), []);
});

test('a failing objective onBlock callback fails endBlock', () => {
  assertOk(add(ON_BLOCK, true, t.action('transact', 'runner', 'fail')));
  assertFails(t.call(0n, 'transact', 'endBlock'), 'runner fails on request');
});

test('subjective callbacks are the native notify row of their type', () => {
  const first = t.action(0n, 'runner', 'record');
  const second = t.action(0n, 'svc-a', 'record');
  assertOk(add(ON_BLOCK, false, first));
  assertOk(add(ON_BLOCK, false, first));
  assertOk(add(ON_BLOCK, false, second));
  assertOk(add(ON_TRANSACTION, false, second));
  assert.equal(notifyActions(ON_BLOCK), packed(first, second));
  assert.equal(notifyActions(ON_TRANSACTION), packed(second));
  // Subjective callbacks are the node's to run: a transaction does not run them.
  const result = t.push(t.transaction([t.action('alice', 'runner', 'record')]));
  assert.equal(t.events(result).length, 1);
  assertOk(remove(ON_BLOCK, false, first));
  assert.equal(notifyActions(ON_BLOCK), packed(second));
  assertOk(remove(ON_BLOCK, false, second));
  assert.is(notifyActions(ON_BLOCK), undefined);
  assertFails(remove(ON_BLOCK, false, second), 'callback not found');
});

test.run();
