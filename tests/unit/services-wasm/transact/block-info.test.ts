// transact's queries (docs/administration.md §4.3): the current and head blocks from the native status row, the
// transaction being applied; and the remaining actions: execTrx (applies a transaction without
// proofs, for the node and transact only), regEvIdx (the one event index service: startBlock with
// each block, sync after each transaction)
// and resMonitoring.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Transaction, accountNumberFromName as account, transactionId } from '../../../../host-api/index.js';
import { NOW, SECOND, TransactChain, assertFails, assertOk, blockId } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

const query = (method: string) => t.call('alice', 'transact', method, {}, { mode: 'rpc' });

test('before a head exists: the current block, no head block, head time 0', () => {
  const current = query('currentBlock');
  assertOk(current);
  assert.equal([(current.value as { blockNum: number }).blockNum, (current.value as { time: bigint }).time], [2, NOW * SECOND]);
  assertFails(query('headBlock'), 'head does not exist yet');
  assert.is(query('headBlockTime').value, 0n);
});

test('with a head: its header and time; the current block follows it', () => {
  t.setStatus({ blockNum: 8, time: NOW + 8n, head: { blockNum: 7, time: NOW + 7n, suffix: 77 } });
  const head = query('headBlock').value as { blockNum: number; time: bigint; producer: bigint };
  assert.equal([head.blockNum, head.time, head.producer], [7, (NOW + 7n) * SECOND, account('prod')]);
  assert.is(query('headBlockTime').value, (NOW + 7n) * SECOND);
  const current = query('currentBlock').value as { blockNum: number; previous: Uint8Array };
  assert.equal([current.blockNum, current.previous], [8, blockId(7, 77)]);
});

test('getTransaction and isTransaction see the transaction being applied, and only then', () => {
  assertFails(query('getTransaction'), 'no transaction is executing');
  assert.is(query('isTransaction').value, false);
  const packed = t.transaction([t.action('alice', 'runner', 'inspect')], {}, [{ service: account('verify-sig'), rawData: new Uint8Array([7]) }]);
  const result = t.push(packed);
  assertOk(result);
  assert.equal(t.events(result).map((e) => e.data), [{ isTransaction: true, transaction: Transaction.unpack(packed) }]);
});

test('execTrx applies a transaction for the node or transact, its id the sha256 of its packing', () => {
  const packed = t.transaction([t.action('alice', 'runner', 'record')]);
  const exec = (sender: string | bigint, speculative = false) => t.call(sender, 'transact', 'execTrx', { trx: Transaction.unpack(packed), speculative });
  assertFails(exec('alice'), 'only native code or transact may call execTrx');
  const result = exec(0n);
  assertOk(result);
  assert.equal(t.events(result).map((e) => e.data.sender), [account('alice')]);
  assertFails(t.push(packed), 'duplicate transaction');
  assertFails(exec('transact'), 'duplicate transaction');
});

test('execTrx honours the boot list: in order, or listed for a speculative run', () => {
  const first = t.transaction([t.action('alice', 'runner', 'record')]);
  const second = t.transaction([t.action('bob', 'runner', 'record')]);
  assertOk(t.push(t.transaction([t.action('transact', 'transact', 'startBoot', { bootTransactions: [transactionId(first), transactionId(second)] })])));
  const exec = (packed: Uint8Array, speculative: boolean) =>
    t.call(0n, 'transact', 'execTrx', { trx: Transaction.unpack(packed), speculative }, { mode: speculative ? 'speculative' : 'transaction' });
  assertFails(exec(second, false), 'Wrong transaction during boot');
  assertOk(exec(second, true));
  assertOk(exec(first, false));
  assertOk(exec(second, false));
});

test('the registered event index syncs at the end of every transaction and starts with every block; another replaces it', () => {
  assertFails(t.call('alice', 'transact', 'regEvIdx', { service: 'svc-a' }), 'sender must be transact');
  assertOk(t.call('transact', 'transact', 'regEvIdx', { service: 'svc-a' }));
  const result = t.push(t.transaction([t.action('alice', 'runner', 'record')]));
  assertOk(result);
  assert.equal(t.events(result).map((e) => [e.service, e.data.sender]), [['runner', account('alice')], ['svc-a', account('transact')]]);
  assertOk(t.call('transact', 'transact', 'regEvIdx', { service: 'svc-b' }));
  const after = t.push(t.transaction([t.action('bob', 'runner', 'record')]));
  assertOk(after);
  assert.equal(t.events(after).map((e) => e.service), ['runner', 'svc-b']);
  t.setStatus({ blockNum: 5, time: NOW + 2n, head: { blockNum: 4, time: NOW + 1n, suffix: 4 } });
  const start = t.call(0n, 'transact', 'startBlock');
  assertOk(start);
  assert.equal(t.events(start).filter((e) => e.service !== 'transact').map((e) => [e.service, e.data.sender]), [['svc-b', account('transact')]]);
});

test('resMonitoring is transact\'s own setting', () => {
  assertFails(t.call('alice', 'transact', 'resMonitoring', { enable: true }), 'sender must be transact');
  assertOk(t.call('transact', 'transact', 'resMonitoring', { enable: true }));
});

test.run();
