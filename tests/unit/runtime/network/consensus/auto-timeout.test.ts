// docs/p2p.md §4, psibase's auto_timeout: T grows x1.5 per expiry up to 5 minutes, and at the
// first reset after each 30-minute window comes down to twice the longest interval seen between
// resets, never up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AutoTimeout } from '../../../../../runtime/network/consensus/auto-timeout.js';

const MINUTE = 60_000;

test('T grows x1.5 at each increase, up to 5 minutes', () => {
  const timeout = new AutoTimeout(3000, 0);
  timeout.increase();
  assert.is(timeout.ms, 4500);
  timeout.increase();
  assert.is(timeout.ms, 6750);
  for (let i = 0; i < 30; i++) timeout.increase();
  assert.is(timeout.ms, 5 * MINUTE);
});

test('after 30 minutes, a reset brings T down to twice the longest interval between resets', () => {
  const timeout = new AutoTimeout(3000, 0);
  for (let i = 0; i < 10; i++) timeout.increase();
  const grown = timeout.ms;
  let now = 0;
  // Resets every second, one gap of 4 s: the network's pace.
  while (now < 30 * MINUTE - 1000) {
    now += now === 10 * MINUTE ? 4000 : 1000;
    timeout.reset(now);
  }
  assert.is(timeout.ms, grown, 'nothing changes inside the window');
  now += 1000;
  timeout.reset(now);
  assert.is(timeout.ms, 8000);
});

test('a window whose longest interval is long leaves a shorter T as it is', () => {
  const timeout = new AutoTimeout(3000, 0);
  timeout.reset(10 * MINUTE);
  timeout.reset(30 * MINUTE);
  assert.is(timeout.ms, 3000);
});

test.run();
