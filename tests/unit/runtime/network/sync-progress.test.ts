// The sync figures a person reads (runtime/network/sync-progress.ts): the log lines while a node
// catches up (blocks behind, blocks/s, the time left) and the state the admin API serves, on a
// clock the test moves.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { durationText, syncText } from '../../../../host-api/http/sync-status.js';
import { SyncProgress } from '../../../../runtime/network/sync-progress.js';

const test = suite('sync progress');

function progress() {
  const lines: string[] = [];
  let now = 1_000_000;
  const p = new SyncProgress((line) => lines.push(line), () => now);
  return { p, lines, advance: (ms: number) => (now += ms) };
}

test('a node behind its peers: a line at once, one every 5 s with the rate and the time left, one when synced', () => {
  const { p, lines, advance } = progress();
  p.peerHas(1000);
  p.head(100);
  assert.equal(lines, ['syncing: at block 100, 900 blocks behind the peers (1000)']);
  assert.equal(p.state(), { syncing: true, head: 100, best: 1000, behind: 900, blocksPerSecond: null, secondsLeft: null });
  advance(2000);
  p.head(140);
  assert.is(lines.length, 1, 'no line within 5 s of the last');
  advance(3000);
  p.head(200);
  // 100 blocks in 5 s since the sync began: 20 blocks/s, 800 left: 40 s.
  assert.is(lines[1], 'syncing: at block 200, 800 blocks behind the peers (1000), 20.0 blocks/s, about 40 s left');
  assert.equal(p.state(), { syncing: true, head: 200, best: 1000, behind: 800, blocksPerSecond: 20, secondsLeft: 40 });
  advance(1000);
  p.head(999);
  assert.is(lines[2], 'synced: at block 999, the head of the peers');
  assert.equal(p.state(), { syncing: false, head: 999, best: 1000, behind: 0, blocksPerSecond: null, secondsLeft: null });
});

test('a node at its peers\' head reports nothing and is not syncing', () => {
  const { p, lines } = progress();
  p.peerHas(10);
  p.head(9);
  p.head(10);
  assert.equal(lines, []);
  assert.is(syncText(p.state()), 'synced: at block 10, the head of the peers');
});

test('times left as a person reads them', () => {
  assert.is(durationText(12.4), '12 s');
  assert.is(durationText(200), '3 min 20 s');
  assert.is(durationText(3900), '1 h 5 min');
});

test.run();
