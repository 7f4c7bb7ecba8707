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
  assert.equal(p.state(), { syncing: true, head: 100, best: 1000, behind: 900, blocksPerSecond: null, secondsLeft: null, snapshot: null });
  advance(2000);
  p.head(140);
  assert.is(lines.length, 1, 'no line within 5 s of the last');
  advance(3000);
  p.head(200);
  // 100 blocks in 5 s since the sync began: 20 blocks/s, 800 left: 40 s.
  assert.is(lines[1], 'syncing: at block 200, 800 blocks behind the peers (1000), 20.0 blocks/s, about 40 s left');
  assert.equal(p.state(), { syncing: true, head: 200, best: 1000, behind: 800, blocksPerSecond: 20, secondsLeft: 40, snapshot: null });
  advance(1000);
  p.head(999);
  assert.is(lines[2], 'synced: at block 999, the head of the peers');
  assert.equal(p.state(), { syncing: false, head: 999, best: 1000, behind: 0, blocksPerSecond: null, secondsLeft: null, snapshot: null });
});

test('a node at its peers\' head reports nothing and is not syncing', () => {
  const { p, lines } = progress();
  p.peerHas(10);
  p.head(9);
  p.head(10);
  assert.equal(lines, []);
  assert.is(syncText(p.state()), 'synced: at block 10, the head of the peers');
});

test('a snapshot from a peer: a line at once, one every 5 s with rows, bytes and the rate; the sync figures after it', () => {
  const { p, lines, advance } = progress();
  const MIB = 1024 * 1024;
  p.snapshotReceived(500, 0, 300);
  assert.equal(lines, ['receiving the snapshot of block 500: 0 rows, 0.0 MiB so far']);
  advance(1000);
  p.snapshotReceived(500, 1000, 2 * MIB);
  assert.is(lines.length, 1, 'no line within 5 s of the last');
  assert.equal(p.state().snapshot, { block: 500, rows: 1000, bytes: 2 * MIB, bytesPerSecond: 2 * MIB });
  advance(4000);
  p.snapshotReceived(500, 5000, 10 * MIB);
  assert.is(lines[1], 'receiving the snapshot of block 500: 5000 rows, 10.0 MiB so far at 2.0 MiB/s');
  assert.is(syncText(p.state()), lines[1]);
  p.snapshotEnded();
  p.peerHas(600);
  p.head(500);
  assert.is(p.state().snapshot, null);
  assert.is(lines[2], 'syncing: at block 500, 100 blocks behind the peers (600)');
});

test('times left as a person reads them', () => {
  assert.is(durationText(12.4), '12 s');
  assert.is(durationText(200), '3 min 20 s');
  assert.is(durationText(3900), '1 h 5 min');
});

test.run();
