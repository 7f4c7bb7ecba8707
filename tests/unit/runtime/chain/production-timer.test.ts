// docs/p2p.md §4 step 7 on a producing chain: consensus may make the node leader again while it
// closes a block (each new head is a consensus event). Production keeps one slot timer all the
// same, so that stop ends production, and close (the node shutting down) ends it for good.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bootedProducer, closeNode, type Node } from './chain-nodes.js';

/** The chains produce a block every 100 ms (chain-nodes.ts): five slots. */
const FIVE_SLOTS_MS = 500;
const slots = () => new Promise((resolve) => setTimeout(resolve, FIVE_SLOTS_MS));

/** `booted`: the blocks made before consensus took over; `reelect`: consensus makes the node leader on each of its blocks. */
interface Context { node: Node; booted: number; reelect: boolean }
const test = suite<Context>('block production under consensus');

test.before(async (ctx) => {
  ctx.node = await bootedProducer();
  const { chain } = ctx.node;
  chain.followConsensus();
  ctx.booted = ctx.node.blocks.length;
  ctx.reelect = true;
  ctx.node.afterBlock = () => {
    if (ctx.reelect) chain.lead(1);
  };
  chain.lead(1);
  await slots();
});

test.after(async (ctx) => {
  await closeNode(ctx.node);
});

test('a leader made leader again on each of its blocks makes blocks; after stop it makes none', async (ctx) => {
  const { node, booted } = ctx;
  assert.ok(node.blocks.length >= booted + 2, `the leader made blocks (${node.blocks.length - booted})`);
  // Consensus stops re-electing it; stop completes the open block, whose head changes nothing.
  ctx.reelect = false;
  node.chain.stop();
  const made = node.blocks.length;
  await slots();
  assert.is(node.blocks.length, made, 'no block after stop');
});

test('after close, leading again starts no production', async (ctx) => {
  const { node } = ctx;
  ctx.reelect = true;
  node.chain.lead(1);
  await slots();
  const made = node.blocks.length;
  assert.ok(node.chain.producing, 'it leads again');
  node.chain.close();
  node.chain.lead(2);
  node.chain.start();
  await slots();
  assert.is(node.blocks.length, made + 1, 'the open block was completed, and no block came after close');
});

test.run();
