// The block tree under block sync (docs/p2p.md §3.4, §3.6): fork choice by (term, blockNum, id),
// orphans, blacklisted subtrees, commit and pruning; one state, taken back to a block's parent
// before the block applies (docs/chain.md §1.6).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PRE_GENESIS, type SyncHeader } from '../../../../../runtime/network/sync/block-header.js';
import { BlockTree, MAX_WAITING_OFF_BEST_BYTES } from '../../../../../runtime/network/sync/block-tree.js';
import { makeModelBlock, type ModelBlock } from '../../../../../runtime/network/simulator/model-block.js';

function child(parent: SyncHeader, term = 1, producer = 'p'): ModelBlock {
  return makeModelBlock({ previous: parent.id, num: parent.num + 1, term, commitNum: 1, producer });
}

/** `count` blocks on top of `parent`, inserted into the tree. */
function grow(tree: BlockTree<ModelBlock>, parent: SyncHeader, count: number, term = 1, producer = 'p'): ModelBlock[] {
  const blocks: ModelBlock[] = [];
  for (let i = 0; i < count; i++) {
    const block = child(blocks[i - 1] ?? parent, term, producer);
    assert.is(tree.insert(block, block), 'added');
    blocks.push(block);
  }
  return blocks;
}

function applyAll(tree: BlockTree<ModelBlock>): string[] {
  const applied: string[] = [];
  for (let next = tree.nextToApply(); next; next = tree.nextToApply()) {
    tree.beginApply(next.id);
    tree.markApplied(next.id);
    applied.push(next.id);
  }
  return applied;
}

test('a higher term beats a longer chain; in one term the longer chain wins', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const long = grow(tree, PRE_GENESIS, 5, 1);
  assert.is(tree.best.id, long[4]!.id);
  const short = grow(tree, long[0]!, 1, 2);
  assert.is(tree.best.id, short[0]!.id);
  const longer = grow(tree, long[4]!, 1, 1);
  assert.is(tree.best.id, short[0]!.id, 'term 2 at block 3 still beats term 1 at block 7');
  assert.is.not(longer[0], undefined);
});

test('in one term and at one height the greater id wins', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const [a] = grow(tree, PRE_GENESIS, 1, 1, 'a');
  const [b] = grow(tree, PRE_GENESIS, 1, 1, 'b');
  assert.is(tree.best.id, a!.id > b!.id ? a!.id : b!.id);
});

test('the head follows the path to the best block as it is applied', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const main = grow(tree, PRE_GENESIS, 4);
  assert.equal(applyAll(tree), main.map((b) => b.id));
  assert.is(tree.head.id, main[3]!.id);
  const fork = grow(tree, main[0]!, 2, 2);
  assert.is(tree.nextToApply()!.id, fork[0]!.id, 'the fork is applied from its first block');
  tree.beginApply(fork[0]!.id);
  assert.is(tree.head.id, main[0]!.id, 'the state goes back to the fork\'s parent first');
  tree.markApplied(fork[0]!.id);
  assert.is(tree.head.id, fork[0]!.id, 'term 2 at block 3 is already better than the old head');
  assert.ok(tree.onHeadChain(fork[0]!));
  assert.not.ok(tree.onHeadChain(main[3]!));
  assert.is(tree.headChainAncestor(main[3]!.id)!.id, main[0]!.id);
});

test('an orphan is dropped; a block at or below the commit is ignored; a misnumbered one refused', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const [b2] = grow(tree, PRE_GENESIS, 1);
  const b3 = child(b2!);
  const b4 = child(b3);
  assert.is(tree.insert(b4, b4), 'orphan');
  assert.is(tree.header(b4.id), undefined);
  assert.is(tree.insert(b3, b3), 'added');
  assert.is(tree.insert(b3, b3), 'known');
  applyAll(tree);
  tree.commit(3);
  assert.is(tree.insert(b2!, b2!), 'old');
  const wrong = makeModelBlock({ previous: b3.id, num: 9, term: 1, commitNum: 1, producer: 'p' });
  assert.is(tree.insert(wrong, wrong), 'misnumbered');
});

test('a block that fails blacklists its subtree, and later children of it', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const good = grow(tree, PRE_GENESIS, 2);
  applyAll(tree);
  const bad = grow(tree, good[0]!, 3, 2);
  assert.is(tree.best.id, bad[2]!.id);
  assert.is(tree.nextToApply()!.id, bad[0]!.id);
  tree.beginApply(bad[0]!.id);
  assert.equal(tree.markFailed(bad[0]!.id).sort(), bad.map((b) => b.id).sort());
  assert.is(tree.best.id, good[1]!.id, 'the best block is chosen again among the rest');
  assert.is(tree.head.id, good[0]!.id, 'the state stays at the failed block\'s parent');
  assert.is(tree.nextToApply()!.id, good[1]!.id, 'the block the state left is applied again');
  applyAll(tree);
  assert.is(tree.head.id, good[1]!.id);
  const late = child(bad[2]!, 2);
  assert.is(tree.insert(late, late), 'blacklisted');
  const grandchild = child(late, 2);
  assert.is(tree.insert(grandchild, grandchild), 'blacklisted');
  assert.is(tree.insert(bad[1]!, bad[1]!), 'blacklisted');
});

test('commit hands over the committed blocks and prunes every block not descending from them', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const main = grow(tree, PRE_GENESIS, 5);
  applyAll(tree);
  const dead = grow(tree, main[0]!, 2, 1, 'other');
  const live = grow(tree, main[2]!, 1, 1, 'other');
  const result = tree.commit(4)!;
  assert.equal(result.committed.map((c) => c.header.num), [2, 3, 4]);
  assert.equal(result.committed.map((c) => c.block), main.slice(0, 3));
  assert.equal(result.dropped.sort(), dead.map((b) => b.id).sort());
  assert.is(tree.commitIndex, 4);
  assert.is(tree.header(main[0]!.id), undefined, 'blocks below the commit leave the tree');
  assert.ok(tree.header(live[0]!.id), 'a fork above the committed block stays');
  assert.is(tree.commit(3), undefined, 'the commit index never goes back');
  assert.equal(tree.commit(99)!.committed.map((c) => c.header.num), [5, 6], 'commit stops at the head');
  assert.is(tree.commitIndex, 6);
  assert.is(tree.header(live[0]!.id), undefined);
});

test('switching back to a fork applies its blocks again: the state left them', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const [root] = grow(tree, PRE_GENESIS, 1);
  const a = grow(tree, root!, 2, 1, 'a');
  applyAll(tree);
  const b = grow(tree, root!, 1, 2, 'b');
  assert.equal(applyAll(tree), [b[0]!.id]);
  assert.not.ok(tree.onHeadChain(a[0]!), 'fork a left the state');
  const a3 = grow(tree, a[1]!, 1, 3, 'a');
  assert.equal(applyAll(tree), [...a, ...a3].map((x) => x.id), 'fork a is executed again from its first block');
  assert.is(tree.head.id, a3[0]!.id);
  assert.not.ok(tree.onHeadChain(b[0]!));
});

test('blocks a node executed before a restart go back on the head without being applied again', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const blocks = [child(PRE_GENESIS)];
  blocks.push(child(blocks[0]!));
  for (const block of blocks) tree.restoreApplied(block, block);
  assert.is(tree.head.id, blocks[1]!.id);
  assert.is(tree.best.id, blocks[1]!.id);
  assert.is(tree.nextToApply(), undefined);
  assert.throws(() => tree.restoreApplied(blocks[0]!, blocks[0]!), /does not extend the head/);
});

test('§3.6 set_subtree: fork choice keeps to the restricted block\'s subtree; new blocks elsewhere do not become best; a commit past it lifts it', () => {
  const tree = new BlockTree<ModelBlock>(PRE_GENESIS, undefined);
  const main = grow(tree, PRE_GENESIS, 3, 1);
  const side = grow(tree, main[0]!, 1, 2);
  applyAll(tree);
  assert.is(tree.head.id, side[0]!.id, 'the higher term wins without a restriction');
  assert.ok(tree.restrict(main[1]!.id));
  assert.is(tree.best.id, main[2]!.id);
  assert.equal(applyAll(tree), [main[1]!.id, main[2]!.id], 'the state goes back to the fork point and applies the subtree');
  const later = grow(tree, side[0]!, 1, 3);
  assert.is(tree.best.id, main[2]!.id, 'a better block outside the subtree is not chosen');
  assert.not.ok(tree.restrict('F'.repeat(64)), 'an unknown block restricts nothing');
  tree.commit(3);
  const next = grow(tree, main[2]!, 1, 1);
  assert.is(tree.best.id, next[0]!.id);
  assert.is(tree.header(later[0]!.id), undefined, 'the other branch went with the commit');
});

/** A tree whose blocks each weigh a quarter of the most a link's waiting blocks off the best chain may. */
function weighedTree(): BlockTree<ModelBlock> {
  return new BlockTree<ModelBlock>(PRE_GENESIS, undefined, () => MAX_WAITING_OFF_BEST_BYTES / 4);
}

test('a link\'s blocks that would not be best are dropped once its waiting blocks weigh the limit; the best chain\'s are always taken', () => {
  const tree = weighedTree();
  const [head] = grow(tree, PRE_GENESIS, 1, 5);
  applyAll(tree);
  // Siblings of lower term, never best: four fill the limit, the fifth is dropped.
  const siblings = Array.from({ length: 5 }, (_, i) => child(PRE_GENESIS, 1, `s${i}`));
  assert.equal(siblings.map((b) => tree.insert(b, b, 7)), ['added', 'added', 'added', 'added', 'crowded']);
  assert.is(tree.header(siblings[4]!.id), undefined);
  assert.is(tree.insert(siblings[4]!, siblings[4]!, 8), 'added', 'another link has its own limit');
  // Blocks that extend the best chain are taken from the crowded link all the same.
  const best = child(head!, 5);
  assert.is(tree.insert(best, best, 7), 'added');
  assert.is(tree.best.id, best.id);
  // Applied or gone, blocks no longer weigh on their link.
  applyAll(tree);
  tree.commit(3);
  const later = child(best, 4, 'late');
  const another = child(best, 4, 'other');
  const top = child(best, 5);
  assert.is(tree.insert(top, top, 7), 'added');
  assert.equal([tree.insert(later, later, 7), tree.insert(another, another, 7)], ['added', 'added']);
});

test('the blocks on the path to the best block that wait to be applied are counted by link', () => {
  const tree = weighedTree();
  const first = child(PRE_GENESIS);
  const second = child(first);
  const third = child(second);
  tree.insert(first, first, 1);
  tree.insert(second, second, 2);
  tree.insert(third, third, 2);
  const side = child(PRE_GENESIS, 1, 'side');
  tree.insert(side, side, 3);
  const quarter = MAX_WAITING_OFF_BEST_BYTES / 4;
  assert.equal([...tree.waitingOnBestPath()].sort(), [[1, { blocks: 1, bytes: quarter }], [2, { blocks: 2, bytes: 2 * quarter }]]);
  tree.beginApply(first.id);
  tree.markApplied(first.id);
  assert.equal([...tree.waitingOnBestPath()], [[2, { blocks: 2, bytes: 2 * quarter }]]);
  applyAll(tree);
  assert.is(tree.waitingOnBestPath().size, 0);
});

test.run();
