// startBlock (docs/chain.md §1.3, §2, §8): only the node calls it; it records the head's TaPoS
// suffix, drops at most 20 expired duplicate rows per block (oldest first), announces the block
// with a blockStart event and schedules snapshots every setSnapTime seconds of block time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { nativeTableKey, NativeTable } from '../../../../host-api/abi/keys.js';
import { ScheduledSnapshotRow } from '../../../../host-api/types/native.js';
import { NOW, SECOND, TransactChain, assertFails, assertOk } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

/** Block `blockNum` starts at NOW + `seconds`, its predecessor one second earlier. */
function startBlock(blockNum: number, seconds: bigint) {
  t.setStatus({ blockNum, time: NOW + seconds, head: { blockNum: blockNum - 1, time: NOW + seconds - 1n, suffix: blockNum } });
  const result = t.call(0n, 'transact', 'startBlock');
  assertOk(result);
  return result;
}

test('only native code (sender 0) starts a block', () => {
  assertFails(t.call('alice', 'transact', 'startBlock'), 'only native code may call startBlock');
  assertFails(t.call('transact', 'transact', 'startBlock'), 'only native code may call startBlock');
});

test('startBlock emits blockStart with the number and time of the block being built', () => {
  const result = startBlock(3, 5n);
  assert.equal(t.events(result).map((e) => [e.name, e.data]), [['blockStart', { blockNum: 3, blockTime: (NOW + 5n) * SECOND }]]);
});

test('startBlock drops at most 20 expired duplicate rows, oldest first, and keeps the rest', () => {
  const transactions = Array.from({ length: 30 }, (_, i) => t.transaction([t.action('alice', 'runner', 'record')], { expiration: NOW + 10n + BigInt(i) }));
  for (const trx of transactions) assertOk(t.push(trx));
  // Pushing one again tells whether its row is still there: its duplicate check comes first.
  const kept = (trx: Uint8Array) => t.push(trx).error?.includes('duplicate transaction') ?? false;

  // At NOW + 35 the first 26 (expiring NOW + 10 .. NOW + 35) have expired.
  startBlock(3, 35n);
  assert.equal(transactions.map(kept), [...Array(20).fill(false), ...Array(10).fill(true)]);
  startBlock(4, 36n);
  assert.equal(transactions.map(kept), [...Array(27).fill(false), ...Array(3).fill(true)]);
});

test('snapshots: off until setSnapTime, then scheduled every interval of block time', () => {
  const scheduled = (blockNum: number) => {
    const row = t.chain.store.get(DbId.native, nativeTableKey(NativeTable.scheduledSnapshot).u32(blockNum).finish());
    return row ? ScheduledSnapshotRow.unpack(row) : undefined;
  };
  assertFails(t.call('alice', 'transact', 'setSnapTime', { seconds: 10 }), 'sender must be transact');
  startBlock(3, 1n);
  startBlock(4, 20n);
  assert.is(scheduled(4), undefined);
  assertOk(t.call('transact', 'transact', 'setSnapTime', { seconds: 10 }));
  // The interval counts from the head's time when block 3 started (NOW).
  startBlock(5, 9n);
  assert.is(scheduled(5), undefined);
  startBlock(6, 10n);
  assert.equal(scheduled(6), { blockNum: 6 });
  startBlock(7, 19n);
  assert.is(scheduled(7), undefined);
  startBlock(8, 20n);
  assert.equal(scheduled(8), { blockNum: 8 });
  assertOk(t.call('transact', 'transact', 'setSnapTime', { seconds: 0 }));
  startBlock(9, 100n);
  assert.is(scheduled(9), undefined);
});

test.run();
