// A link's share of the node's time (docs/p2p.md "What we build" 1, "Peers that attack"): a
// token bucket of handling time, on a clock the test moves.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LinkBudget, type BudgetSettings } from '../../../../../runtime/network/links/link-budget.js';

const SETTINGS: BudgetSettings = { share: 0.2, burstMs: 1_000, frameMs: 0.02, maxChargeMs: 50, dropAfterMs: 10_000 };

test('a link spends its burst, then waits for the bucket to refill at its share of the time', () => {
  const budget = new LinkBudget(0, SETTINGS);
  for (let i = 0; i < 30; i++) budget.charge(40, 0);
  // It owes 200 ms (and a frame's framing): it earns that back in a fifth of the time, 1 s.
  assert.is(budget.waitMs(0), Math.ceil((200 + 30 * 0.02 + 0.02) / 0.2));
  assert.ok(budget.waitMs(500) > 0);
  assert.is(budget.waitMs(1_010), 0);
});

test('a frame is charged its framing besides its handling, and at most maxChargeMs however long it took', () => {
  const tiny = new LinkBudget(0, SETTINGS);
  for (let i = 0; i <= 1_000 / 0.02; i++) tiny.charge(0, 0);
  assert.ok(tiny.waitMs(0) > 0, 'frames that take no time still cost their framing');
  const slow = new LinkBudget(0, SETTINGS);
  slow.charge(5_000, 0);
  assert.is(slow.waitMs(0), 0, 'one long message (a snapshot loading) takes 50 ms of the burst, not 5 s');
});

test('a link that stays over its budget for dropAfterMs is exhausted; one that pauses is not', () => {
  const flood = new LinkBudget(0, SETTINGS);
  const honest = new LinkBudget(0, SETTINGS);
  for (let t = 0; t <= 12_000; t += 10) {
    // The flood spends all it is given; the honest link spends its share in bursts and rests.
    while (flood.waitMs(t) === 0) flood.charge(5, t);
    if (t % 5_000 === 0) for (let i = 0; i < 20; i++) honest.charge(50, t);
    if (t < 10_000) assert.not.ok(flood.exhausted(t), `not yet at ${t} ms`);
    assert.not.ok(honest.exhausted(t), `the honest link at ${t} ms`);
  }
  assert.ok(flood.exhausted(12_000));
});

test('owing is bounded: after any burst of work a link is served again within (2 × burst) / share', () => {
  const budget = new LinkBudget(0, SETTINGS);
  for (let i = 0; i < 1_000; i++) budget.charge(50, 0);
  assert.ok(budget.waitMs(0) <= (2 * SETTINGS.burstMs) / SETTINGS.share);
  assert.is(budget.waitMs((2 * SETTINGS.burstMs) / SETTINGS.share), 0);
});

test.run();
