// transact's boot states (docs/administration.md §3, docs/chain.md §4): open before startBoot, only the listed
// transactions in order during boot (speculative runs: listed is enough), auth and the native
// configuration after finishBoot.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { configKey, nativeTableKey, NativeTable } from '../../../../host-api/abi/keys.js';
import { accountNumberFromName as account, transactionId } from '../../../../host-api/index.js';
import { ConfigRow, WasmConfigRow } from '../../../../host-api/types/native.js';
import { NOW, TransactChain, assertFails, assertOk } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

const record = (sender: string) => t.action(sender, 'runner', 'record');
const startBoot = (ids: Uint8Array[]) => t.transaction([t.action('transact', 'transact', 'startBoot', { bootTransactions: ids })]);
const finishBoot = (tapos = {}) => t.transaction([t.action('transact', 'transact', 'finishBoot')], tapos);

test('before startBoot any transaction runs, each action with its own sender and no auth check', () => {
  const result = t.push(t.transaction([record('alice'), record('bob')]));
  assert.is(result.error, undefined);
  assert.equal(t.events(result).map((e) => [e.name, e.data.sender]), [['recorded', account('alice')], ['recorded', account('bob')]]);
});

test('during boot only the next listed transaction is accepted, and it is consumed', () => {
  const first = t.transaction([record('alice')]);
  const second = t.transaction([record('bob')]);
  assertOk(t.push(startBoot([transactionId(first), transactionId(second)])));
  assertFails(t.push(second), 'Wrong transaction during boot');
  assertFails(t.push(t.transaction([record('carol')])), 'Wrong transaction during boot');
  assertOk(t.push(first));
  assertOk(t.push(second));
  // The list is used up: the chain is open again (until finishBoot turns auth on).
  assertOk(t.push(t.transaction([record('carol')])));
});

test('a speculative run needs only to be listed and leaves the list as it was', () => {
  const first = t.transaction([record('alice')]);
  const second = t.transaction([record('bob')]);
  t.push(startBoot([transactionId(first), transactionId(second)]));
  assertOk(t.push(second, { speculative: true }));
  assertFails(t.push(t.transaction([record('carol')]), { speculative: true }), 'Wrong transaction during boot');
  assertFails(t.push(second), 'Wrong transaction during boot');
  assertOk(t.push(first));
});

test('boot transactions must carry the zero TaPoS reference even once a head exists', () => {
  const listed = t.transaction([record('alice')], { refBlockIndex: 2, refBlockSuffix: 7 });
  t.push(startBoot([transactionId(listed)]));
  t.setStatus({ blockNum: 3, time: NOW + 1n, head: { blockNum: 2, time: NOW, suffix: 7 } });
  assertFails(t.push(listed), 'transaction references non-existing block');
});

test('startBoot runs once', () => {
  assertOk(t.push(startBoot([])));
  assertFails(t.push(startBoot([])), 'already started');
});

test('finishBoot needs every listed transaction to have run; then auth is on and the native config written', () => {
  const listed = t.transaction([record('alice')]);
  const finish = finishBoot();
  t.push(startBoot([transactionId(listed), transactionId(finish)]));
  assertOk(t.push(listed));
  assert.is(t.chain.store.get(DbId.native, configKey()), undefined);
  assertOk(t.push(finish));
  assert.equal(ConfigRow.unpack(t.chain.store.get(DbId.native, configKey())!), { maxKeySize: 128, maxValueSize: 8 << 20 });
  for (const table of [NativeTable.transactionWasmConfig, NativeTable.proofWasmConfig]) {
    assert.equal(WasmConfigRow.unpack(t.chain.store.get(DbId.native, nativeTableKey(table).finish())!), {
      numExecutionMemories: 32,
      vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1 << 20 },
    });
  }
  // Auth is on: dave has no account, so no auth service.
  assertFails(t.push(t.transaction([record('dave')])), 'account dave does not exist');
  assertFails(t.push(finishBoot()), 'boot is already finished');
});

test('finishBoot refuses while listed transactions are pending', () => {
  const listed = t.transaction([record('alice')]);
  const finish = finishBoot();
  t.push(startBoot([transactionId(finish), transactionId(listed)]));
  assertFails(t.push(finish), 'Not all boot transactions have been run');
});

test('without startBoot, finishBoot must come in the first block', () => {
  t.setStatus({ blockNum: 3, time: NOW + 1n, head: { blockNum: 2, time: NOW, suffix: 1 } });
  assertOk(t.call(0n, 'transact', 'startBlock'));
  assertFails(t.push(finishBoot({ refBlockIndex: 2, refBlockSuffix: 1 })), 'The boot process must use startBoot when split across multiple blocks');
  t.setStatus({ blockNum: 2, time: NOW });
  assertOk(t.push(finishBoot()));
});

test.run();
