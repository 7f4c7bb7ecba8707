// docs/p2p.md "What we build" 4: what a producer that does not lead holds of the transactions
// passed on to it, for its first blocks when it is elected.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HELD_MAX, HELD_MAX_BYTES, HeldTransactions } from '../../../../runtime/chain/held-transactions.js';

const packed = (n: number) => new Uint8Array([n & 0xff, n >> 8]);

test('held until a block holds them or they expire, taken oldest first, once', () => {
  const held = new HeldTransactions();
  held.hold('a', packed(1), 1000);
  held.hold('b', packed(2), 3000);
  held.hold('c', packed(3), 3000);
  held.included(['b', 'x']);
  assert.is(held.size, 2);
  assert.equal(held.take(2000), [packed(3)], 'a expired at 1000, b is in a block');
  assert.equal(held.take(0), [], 'taken once');
});

test(`at most ${HELD_MAX} held: the oldest go first`, () => {
  const held = new HeldTransactions();
  for (let i = 0; i <= HELD_MAX; i++) held.hold(`t${i}`, packed(i), 1);
  held.hold('t1', packed(1), 1);
  assert.is(held.size, HELD_MAX);
  const taken = held.take(0);
  assert.equal(taken[0], packed(2), 't0 went first; t1, held again, is now the newest');
  assert.equal(taken.at(-1), packed(1));
});

test('at most HELD_MAX_BYTES held: large ones push the oldest out, and the count of bytes follows', () => {
  const held = new HeldTransactions();
  const large = (n: number) => new Uint8Array(HELD_MAX_BYTES / 4).fill(n);
  for (let i = 0; i < 5; i++) held.hold(`l${i}`, large(i), 1);
  assert.is(held.size, 4);
  assert.is(held.bytes, HELD_MAX_BYTES);
  held.included(['l1']);
  assert.is(held.bytes, (HELD_MAX_BYTES / 4) * 3);
  held.hold('l2', large(2), 1);
  assert.is(held.bytes, (HELD_MAX_BYTES / 4) * 3, 'held again: counted once');
  assert.equal(held.take(0).map((p) => p[0]), [3, 4, 2]);
  assert.is(held.bytes, 0);
});

test.run();
