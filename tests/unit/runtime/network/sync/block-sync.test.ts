// Block sync's per-link state machine (docs/p2p.md §6.2): the hello exchange's cases, streaming
// one block at a time, receiving without echo, fork switches, failed blocks, contract errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PRE_GENESIS, xidOf, type BlockXid } from '../../../../../runtime/network/sync/block-header.js';
import { BlockSync, NO_COMMON_BLOCK } from '../../../../../runtime/network/sync/block-sync.js';
import { SyncError } from '../../../../../runtime/network/sync/sync-error.js';
import type { SyncEvent, SyncReady } from '../../../../../runtime/network/sync/sync-io.js';
import type { SyncMessage } from '../../../../../runtime/network/sync/sync-messages.js';
import { makeModelBlock, modelHeader, type ModelBlock } from '../../../../../runtime/network/simulator/model-block.js';
import { DurableChain } from '../../../../../runtime/network/simulator/model-chain.js';
import { assertFails } from '../../../../lib/assert-error.js';

const PEER = 7;

/**
 * A node: sync over a model chain, which executes what the node produces and what it reports
 * applied, and appends what sync commits.
 */
class Node {
  readonly log = new DurableChain();
  readonly sync = new BlockSync<ModelBlock>({ headerOf: modelHeader, committedBlocks: this.log });
  private readonly handedOut = new Map<string, ModelBlock>();

  step(event: SyncEvent<ModelBlock>): SyncReady<ModelBlock> {
    if (event.type === 'produced') assert.is(this.log.execute(event.block), undefined);
    if (event.type === 'applied' && event.ok && this.handedOut.has(event.id)) assert.is(this.log.execute(this.handedOut.get(event.id)!), undefined);
    const ready = this.sync.step(event);
    for (const { block } of ready.apply) this.handedOut.set(block.id, block);
    assert.is(this.log.append(ready.committed), undefined);
    return ready;
  }

  /** Produces `count` blocks of `term` on the head, then commits up to `commit`. */
  produce(count: number, term = 1, producer = 'p', commit = 0): ModelBlock[] {
    const blocks: ModelBlock[] = [];
    for (let i = 0; i < count; i++) {
      const head = this.sync.head;
      const block = makeModelBlock({ previous: head.id, num: head.num + 1, term, commitNum: 1, producer });
      this.step({ type: 'produced', block });
      blocks.push(block);
    }
    if (commit) this.step({ type: 'commit', num: commit });
    return blocks;
  }
}

const hello = (xid: BlockXid, committed: boolean): SyncMessage<ModelBlock> => ({ kind: 'HelloRequest', body: { xid, committed } });
const receive = (message: SyncMessage<ModelBlock>): SyncEvent<ModelBlock> => ({ type: 'receive', peer: PEER, message });
const SENT: SyncEvent<ModelBlock> = { type: 'sent', peer: PEER };

/** The messages sent to PEER in one Ready. */
function sent(ready: SyncReady<ModelBlock>): SyncMessage<ModelBlock>[] {
  return ready.sends.filter((s) => s.peer === PEER).map((s) => s.message);
}

function sentBlockNums(ready: SyncReady<ModelBlock>): number[] {
  return sent(ready).map((m) => (m.kind === 'BlockMessage' ? m.body.block.num : -1));
}

test('hellos walk back from the head, one per completed send, until a committed one', () => {
  const node = new Node();
  const blocks = node.produce(5, 1, 'p', 3);
  const hellos = [sent(node.step({ type: 'linkUp', peer: PEER }))];
  for (let i = 0; i < 4; i++) hellos.push(sent(node.step(SENT)));
  assert.equal(hellos, [
    [hello(xidOf(blocks[4]!), false)],
    [hello(xidOf(blocks[3]!), false)],
    [hello(xidOf(blocks[2]!), false)],
    [hello(xidOf(blocks[1]!), true)],
    [],
  ]);
});

test('an empty node says {0×32, 1} committed and syncs every block from genesis on', () => {
  const source = new Node();
  const blocks = source.produce(4, 1, 'p', 5);
  const empty = new Node();
  assert.equal(sent(empty.step({ type: 'linkUp', peer: PEER })), [hello(xidOf(PRE_GENESIS), true)]);

  // The source: the empty peer's hello gives the common block {0, 1}; streaming starts once its
  // own committed hello is out.
  assert.equal(sent(source.step({ type: 'linkUp', peer: PEER })), [hello(xidOf(blocks[3]!), true)]);
  assert.equal(sent(source.step(receive(hello(xidOf(PRE_GENESIS), true)))), []);
  const streamed = [sentBlockNums(source.step(SENT))];
  for (let i = 0; i < 4; i++) streamed.push(sentBlockNums(source.step(SENT)));
  assert.equal(streamed, [[2], [3], [4], [5], []]);

  // The empty node: the peer is ahead; its first block makes the link Ready and is applied.
  const behind = empty.step(receive(hello(xidOf(blocks[3]!), true)));
  assert.equal(behind.log.map((l) => l.text), ['Behind the peer by 4 blocks']);
  assert.equal(sent(empty.step(SENT)), [], 'its only hello was the committed one');
  for (const block of blocks) {
    const ready = empty.step(receive({ kind: 'BlockMessage', body: { block } }));
    assert.equal(ready.apply.map((a) => a.header.id), [block.id]);
    const applied = empty.step({ type: 'applied', id: block.id, ok: true });
    assert.is(applied.head!.id, block.id);
    assert.equal(sent(applied), [], 'a block is not echoed back to where it came from');
  }
  assert.is(empty.sync.head.id, blocks[3]!.id);
});

test('a committed hello at or below our commit index with another id: "No common block found", an offence of the peer', () => {
  const ours = new Node();
  ours.produce(4, 1, 'ours', 5);
  const theirs = new Node();
  const other = theirs.produce(3, 1, 'theirs', 4);
  ours.step({ type: 'linkUp', peer: PEER });
  const ready = ours.step(receive(hello(xidOf(other[2]!), true)));
  assert.equal(ready.disconnects, [{ peer: PEER, reason: NO_COMMON_BLOCK, offence: true }]);
  assert.equal(sent(ours.step(SENT)), [], 'the link is forgotten');
});

test('a committed hello ahead of us that we do not know: wait for the peer\'s blocks', () => {
  const node = new Node();
  node.produce(2, 1, 'p', 3);
  node.step({ type: 'linkUp', peer: PEER });
  const far = { id: 'ab'.repeat(32), num: 40 };
  const ready = node.step(receive(hello(far, true)));
  assert.equal(ready.disconnects, []);
  assert.equal(ready.log.map((l) => l.text), ['Behind the peer by 37 blocks']);
  assert.equal(sent(node.step(SENT)), [], 'no blocks go out while the link waits in Start');
});

test('an uncommitted hello we do not know is skipped; one we know gives the common block', () => {
  const node = new Node();
  const main = node.produce(4, 1, 'p', 2);
  node.step({ type: 'linkUp', peer: PEER });
  assert.equal(sent(node.step(receive(hello({ id: 'cd'.repeat(32), num: 9 }, false)))), []);
  // Our block 4 is what the peer has: after our committed hello we stream from 5.
  node.step(receive(hello(xidOf(main[2]!), false)));
  const out = [node.step(SENT), node.step(SENT), node.step(SENT)].map(sent);
  assert.equal(out[0], [hello(xidOf(main[2]!), false)]);
  assert.equal(out[1], [hello(xidOf(main[1]!), false)]);
  assert.equal(out[2], [hello(xidOf(main[0]!), true)]);
  assert.equal(sentBlockNums(node.step(SENT)), [5]);
});

test('our hellos jump down to the peer\'s height instead of walking there', () => {
  const node = new Node();
  const blocks = node.produce(10);
  node.step({ type: 'linkUp', peer: PEER });
  node.step(receive(hello({ id: 'ef'.repeat(32), num: 3 }, false)));
  assert.equal(sent(node.step(SENT)), [hello(xidOf(blocks[1]!), false)]);
});

test('a fork switch moves last_sent back to the common ancestor', () => {
  const node = new Node();
  const main = node.produce(4, 1, 'p', 2);
  node.step({ type: 'linkUp', peer: PEER });
  node.step(receive(hello(xidOf(PRE_GENESIS), true)));
  // The hello jumps to the peer's height ({0, 1}, committed), then blocks 2..5 go out.
  const out: number[][] = [];
  for (let i = 0; i < 6; i++) out.push(sentBlockNums(node.step(SENT)));
  assert.equal(out.flat(), [-1, 2, 3, 4, 5]);
  // A better fork from block 3 comes in on another link; once applied, the stream resends from 4.
  const fork = makeModelBlock({ previous: main[1]!.id, num: 4, term: 2, commitNum: 2, producer: 'q' });
  node.step({ type: 'linkUp', peer: 8 });
  node.step({ type: 'receive', peer: 8, message: { kind: 'BlockMessage', body: { block: fork } } });
  const switched = node.step({ type: 'applied', id: fork.id, ok: true });
  assert.is(switched.head!.id, fork.id);
  assert.equal(sent(switched).map((m) => (m.kind === 'BlockMessage' ? m.body.block.id : '')), [fork.id]);
});

test('at most one block in flight per link', () => {
  const node = new Node();
  node.produce(1, 1, 'p', 2);
  node.step({ type: 'linkUp', peer: PEER });
  node.step(receive(hello(xidOf(PRE_GENESIS), true)));
  assert.equal(sentBlockNums(node.step(SENT)), [2]);
  const block3 = makeModelBlock({ previous: node.sync.head.id, num: 3, term: 1, commitNum: 2, producer: 'p' });
  assert.equal(sentBlockNums(node.step({ type: 'produced', block: block3 })), [], 'block 2 is still being written');
  assert.equal(sentBlockNums(node.step(SENT)), [3]);
});

test('a block that fails to apply is blacklisted with its subtree, and the link stays', () => {
  const node = new Node();
  node.produce(1, 1, 'p', 2);
  node.step({ type: 'linkUp', peer: PEER });
  const bad = makeModelBlock({ previous: node.sync.head.id, num: 3, term: 1, commitNum: 2, producer: 'x' });
  const after = makeModelBlock({ previous: bad.id, num: 4, term: 1, commitNum: 2, producer: 'x' });
  assert.equal(node.step(receive({ kind: 'BlockMessage', body: { block: bad } })).apply.map((a) => a.block), [bad]);
  node.step(receive({ kind: 'BlockMessage', body: { block: after } }));
  const failed = node.step({ type: 'applied', id: bad.id, ok: false, reason: 'blockId does not match' });
  assert.equal(failed.dropped.sort(), [bad.id, after.id].sort());
  assert.equal(failed.disconnects, []);
  assert.match(failed.log[0]!.text, /failed \(blockId does not match\); it and 1 descendants are blacklisted/);
  assert.equal(node.step(receive({ kind: 'BlockMessage', body: { block: after } })).apply, [], 'ignored when sent again');
});

test('contract errors: a result nobody asked for, a produced block off the head', () => {
  const node = new Node();
  node.produce(2);
  assertFails(() => node.step({ type: 'applied', id: 'aa'.repeat(32), ok: true }), SyncError, 'SYNC_UNEXPECTED_RESULT');
  const stray = makeModelBlock({ previous: PRE_GENESIS.id, num: 2, term: 5, commitNum: 1, producer: 'p' });
  assertFails(() => node.step({ type: 'produced', block: stray }), SyncError, 'SYNC_NOT_HEAD', ['does not extend the head 3']);
});

// Snapshots (docs/p2p.md §7.4): a node whose block log starts at a loaded snapshot.

/** A node restarted on a log cut at its irreversible block, as a loaded snapshot leaves it. */
function cutAt(source: Node, committed: ModelBlock, applied: ModelBlock[]): BlockSync<ModelBlock> {
  return new BlockSync<ModelBlock>({ headerOf: modelHeader, committedBlocks: source.log, committedHead: committed, appliedBlocks: applied, logStart: committed.num });
}

test('a peer whose irreversible block is below our log start gets a snapshot, then the blocks after it', () => {
  const source = new Node();
  const blocks = source.produce(6, 1, 'p', 5);
  const sync = cutAt(source, blocks[3]!, blocks.slice(4));
  sync.step({ type: 'linkUp', peer: PEER });
  const asked = sync.step(receive(hello(xidOf(PRE_GENESIS), true)));
  assert.equal(asked.snapshots, [PEER]);
  assert.equal(sync.step({ type: 'snapshotSent', peer: PEER, block: blocks[3]! }).sends, [], 'the hello in flight goes first');
  const after = sync.step(SENT);
  assert.equal(sentBlockNums(after), [blocks[4]!.num]);
});

test('a peer at or above our log start gets no snapshot; none to send closes the link', () => {
  const source = new Node();
  const blocks = source.produce(6, 1, 'p', 5);
  const sync = cutAt(source, blocks[3]!, blocks.slice(4));
  sync.step({ type: 'linkUp', peer: PEER });
  assert.equal(sync.step(receive(hello(xidOf(blocks[3]!), true))).snapshots, []);
  const other = 8;
  sync.step({ type: 'linkUp', peer: other });
  assert.equal(sync.step({ type: 'receive', peer: other, message: hello(xidOf(PRE_GENESIS), true) }).snapshots, [other]);
  const none = sync.step({ type: 'snapshotSent', peer: other, block: undefined });
  assert.equal(none.disconnects.map((d) => d.peer), [other]);
});

test('a loaded snapshot becomes the head: its sender streams on after it, other links say hello again', () => {
  const source = new Node();
  const blocks = source.produce(6, 1, 'p', 5);
  const empty = new Node();
  const other = 8;
  empty.step({ type: 'linkUp', peer: PEER });
  empty.step({ type: 'linkUp', peer: other });
  const loaded = empty.sync.step({ type: 'snapshotLoaded', peer: PEER, block: blocks[3]! });
  assert.is(loaded.head?.num, blocks[3]!.num);
  assert.is(empty.sync.commitIndex, blocks[3]!.num);
  // The other link's hello in flight completes, then it says hello from the new head.
  const again = empty.sync.step({ type: 'sent', peer: other });
  assert.equal(again.sends.map((s) => s.message), [hello(xidOf(blocks[3]!), true)]);
  // Blocks from the sender apply on the snapshot's block.
  const next = empty.sync.step(receive({ kind: 'BlockMessage', body: { block: blocks[4]! } }));
  assert.equal(next.apply.map((a) => a.block.num), [blocks[4]!.num]);
});

test('a peer that said it has nothing before a snapshot is loaded gets the snapshot from us after it', () => {
  const source = new Node();
  const blocks = source.produce(6, 1, 'p', 5);
  const empty = new Node();
  const other = 8;
  empty.step({ type: 'linkUp', peer: PEER });
  empty.step(receive(hello(xidOf(PRE_GENESIS), true)));
  empty.step({ type: 'linkUp', peer: other });
  const loaded = empty.sync.step({ type: 'snapshotLoaded', peer: other, block: blocks[3]! });
  assert.equal(loaded.snapshots, [PEER]);
});

test('§3.6 a BFT root event moves the head onto the named subtree: the state goes back to the fork and applies it', () => {
  const node = new Node();
  const [b2] = node.produce(1, 1);
  const side = makeModelBlock({ previous: b2!.id, num: 3, term: 1, commitNum: 1, producer: 'q' });
  const higher = node.produce(2, 2);
  node.step({ type: 'linkUp', peer: PEER });
  node.step(receive(hello(xidOf(PRE_GENESIS), true)));
  node.step(receive({ kind: 'BlockMessage', body: { block: side } }));
  assert.is(node.sync.head.id, higher[1]!.id, 'the higher term is the head without a restriction');
  const ready = node.step({ type: 'root', id: side.id });
  assert.equal(ready.apply.map((a) => a.block.id), [side.id], 'the side block is applied on its parent, block 2');
  const done = node.step({ type: 'applied', id: side.id, ok: true });
  assert.is(done.head?.id, side.id);
  assert.equal(node.step({ type: 'root', id: 'F'.repeat(64) }).apply, [], 'a block sync does not hold restricts nothing');
});

test('a block applied with the chain\'s commit: a better block on a fork below it, which came meanwhile, is never handed out', () => {
  const node = new Node();
  node.step({ type: 'linkUp', peer: PEER });
  node.step(receive(hello(xidOf(PRE_GENESIS), true)));
  const first = makeModelBlock({ previous: PRE_GENESIS.id, num: 2, term: 1, commitNum: 1, producer: 'p' });
  const honest = makeModelBlock({ previous: first.id, num: 3, term: 1, commitNum: 1, producer: 'p' });
  node.step(receive({ kind: 'BlockMessage', body: { block: first } }));
  node.step({ type: 'applied', id: first.id, ok: true, commit: 2 });
  assert.equal(node.step(receive({ kind: 'BlockMessage', body: { block: honest } })).apply.map((a) => a.block.id), [honest.id]);
  // While `honest` applies, a peer sends a block of a later term on its parent.
  const fork = makeModelBlock({ previous: first.id, num: 3, term: 9, commitNum: 1, producer: 'x' });
  node.step(receive({ kind: 'BlockMessage', body: { block: fork } }));
  // The chain made `honest` irreversible as it applied it: the fork is below that and gone.
  const done = node.step({ type: 'applied', id: honest.id, ok: true, commit: 3 });
  assert.equal(done.apply, [], 'nothing to revert to');
  assert.is(node.sync.head.id, honest.id);
  assert.is(node.sync.commitIndex, 3);
});

test.run();
