// processTransaction's checks before any action runs (docs/chain.md §2, §5): strict format, at least
// one action, duplicates, flags and do_not_broadcast, the expiration window, and TaPoS against
// the block summary startBlock keeps (recent slots and 8192-block milestones).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, CORE_SCHEMA, transactionId } from '../../../../host-api/index.js';
import { ProcessTransactionArgs } from '../../../../host-api/types/native.js';
import { NOW, TransactChain, assertFails, assertOk } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

const record = () => t.action('alice', 'runner', 'record');

/** Blocks 2..last completed, block N's id suffix 1000 + N, each followed by its startBlock. */
function produceBlocks(last: number, from = 2): void {
  for (let n = from; n <= last; n++) {
    const time = NOW + BigInt(n);
    t.setStatus({ blockNum: n + 1, time: time + 1n, head: { blockNum: n, time, suffix: 1000 + n } });
    assertOk(t.call(0n, 'transact', 'startBlock'));
  }
}

test('a transaction that is not a strictly valid packed Transaction has invalid format', () => {
  const push = (transaction: Uint8Array) =>
    t.chain.runExport('transact', 'processTransaction', ProcessTransactionArgs.pack({ transaction, id: transactionId(transaction), speculative: false }));
  assertFails(push(new Uint8Array([1, 2, 3])), 'transaction has invalid format');
  // A field this version does not know: accepted by lenient decoding, not here.
  const extended = compileSchema({ ...CORE_SCHEMA, Next: { Object: { tapos: 'Tapos', actions: { List: 'Action' }, claims: { List: 'Claim' }, extra: 'u32' } } });
  const withExtra = extended.type('Next').pack({ tapos: { expiration: NOW + 60n, refBlockSuffix: 0, flags: 0, refBlockIndex: 0 }, actions: [record()], claims: [], extra: 1 });
  assertFails(push(withExtra), 'transaction has invalid format');
});

test('a transaction needs an action', () => {
  assertFails(t.push(t.transaction([])), 'transaction has no actions');
});

test('a transaction applies once; a failed one leaves no trace of itself', () => {
  const trx = t.transaction([record()]);
  assertOk(t.push(trx));
  assertFails(t.push(trx), 'duplicate transaction');
  const failing = t.transaction([t.action('alice', 'runner', 'fail')]);
  assertFails(t.push(failing), 'runner fails on request');
  assertFails(t.push(failing), 'runner fails on request');
});

test('only the do_not_broadcast flag exists, and such a transaction runs only speculatively', () => {
  assertFails(t.push(t.transaction([record()], { flags: 2 })), 'unsupported flags on transaction');
  assertFails(t.push(t.transaction([record()], { flags: 0x8001 })), 'unsupported flags on transaction');
  const local = t.transaction([record()], { flags: 1 });
  assertFails(t.push(local), 'cannot commit a do_not_broadcast transaction');
  assertOk(t.push(local, { speculative: true }));
});

test('the expiration lies after the current block time and less than an hour after it', () => {
  assertFails(t.push(t.transaction([record()], { expiration: NOW - 1n })), 'transaction has expired');
  assertFails(t.push(t.transaction([record()], { expiration: NOW })), 'transaction has expired');
  assertOk(t.push(t.transaction([record()], { expiration: NOW + 1n })));
  assertOk(t.push(t.transaction([record()], { expiration: NOW + 3599n })));
  assertFails(t.push(t.transaction([record()], { expiration: NOW + 3600n })), 'transaction was submitted too early');
});

test('before a head exists only the zero TaPoS reference is accepted', () => {
  assertFails(t.push(t.transaction([record()], { refBlockIndex: 2 })), 'transaction references non-existing block');
  assertFails(t.push(t.transaction([record()], { refBlockSuffix: 5 })), 'transaction references non-existing block');
  assertOk(t.push(t.transaction([record()])));
});

test('TaPoS references one of the latest blocks by index and id suffix', () => {
  produceBlocks(9);
  const refer = (index: number, suffix: number) => t.push(t.transaction([record()], { expiration: NOW + 100n + BigInt(index * 7 + suffix), refBlockIndex: index, refBlockSuffix: suffix }));
  for (let n = 2; n <= 9; n++) assertOk(refer(n, 1000 + n));
  assertFails(refer(5, 1006), 'transaction references non-existing block');
  assertFails(refer(10, 0), 'transaction references non-existing block');
  assertFails(refer(0, 0), 'transaction references non-existing block');
  assertFails(refer(1, 0), 'transaction references non-existing block');
});

test('the recent slots wrap after 128 blocks: an overwritten slot matches only the newer block', () => {
  produceBlocks(131);
  const refer = (index: number, suffix: number) => t.push(t.transaction([record()], { expiration: NOW + 200n, refBlockIndex: index, refBlockSuffix: suffix }));
  assertFails(refer(130 & 0x7f, 1002), 'transaction references non-existing block');
  assertOk(refer(130 & 0x7f, 1130));
});

test('milestones: every 8192nd block also fills slot (blockNum >> 13) | 0x80', () => {
  const milestone = (blockNum: number, suffix: number) => {
    t.setStatus({ blockNum: blockNum + 1, time: NOW + 10n, head: { blockNum, time: NOW + 9n, suffix } });
    assertOk(t.call(0n, 'transact', 'startBlock'));
  };
  let expiration = NOW + 300n;
  const refer = (index: number, suffix: number) => t.push(t.transaction([record()], { expiration: expiration++, refBlockIndex: index, refBlockSuffix: suffix }));
  milestone(8192, 81);
  assertOk(refer(0x81, 81));
  assertOk(refer(0, 81));
  milestone(16384, 82);
  assertOk(refer(0x82, 82));
  // psibase's range rule, ((index - 2) & 0x7F) <= (head >> 13) - 2, as docs/chain.md §2 keeps it:
  // 0x83 (a milestone to come) fails, and so does 0x81 once the limit stops wrapping.
  assertFails(refer(0x83, 0), 'transaction references non-existing block');
  assertFails(refer(0x81, 81), 'transaction references non-existing block');
});

test('a transaction can be checked speculatively without being recorded', () => {
  const trx = t.transaction([record()]);
  const result = t.push(trx, { speculative: true });
  assertOk(result);
  assert.is(t.events(result).length, 1);
  assertOk(t.push(trx));
});

test.run();
