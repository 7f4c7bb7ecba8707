// docs/p2p.md §5.4 on a producing chain and a follower applying its blocks: once the producers
// are a BFT set of two, a header's commitNum makes nothing irreversible on the follower (only
// what consensus commits there does), so the follower keeps the undo records of those blocks and
// can still switch forks below them; after a restart it is irreversible exactly as far as its
// undo records show, neither less nor as far as the headers claim.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, signTransaction, systemAction } from '../../../../host-api/index.js';
import { applyRange, bootedProducer, closeNode, inBlock, newNode, openNode, transaction, type Node } from './chain-nodes.js';

const claimless = { service: 0n, rawData: new Uint8Array(0) };
const names = [accountNumberFromName('prod'), accountNumberFromName('other')];

interface Context { producer: Node; follower: Node }
const irreversibility = suite<Context>('irreversibility under BFT');

irreversibility.before(async (ctx) => {
  ctx.producer = await bootedProducer();
  ctx.follower = newNode('');
});

irreversibility.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

/** The producer leads and makes one block on its head, with `committed` as its commit index (§4). */
async function blockCommitting(producer: Node, committed: number): Promise<number> {
  producer.chain.commitTo(committed);
  // Leading opens the block at once, with the commit index as its commitNum; inBlock closes it.
  producer.chain.lead(1);
  await inBlock(producer.chain, []);
  return producer.chain.head!.header.blockNum;
}

irreversibility('irreversibility under BFT does not trust header.commitNum: a follower keeps those blocks reversible', async (ctx) => {
  const { producer, follower } = ctx;
  const setBft = signTransaction(transaction(producer.chain, [systemAction('producers', 'producers.setConsensus', {
    consensus: { BftConsensus: { producers: names.map((name) => ({ name, auth: claimless })) } },
  })]), []);
  await inBlock(producer.chain, [setBft]);
  const change = producer.chain.status!.consensus.next!.blockNum;
  // Consensus drives production from here on: its commit index goes into the leader's headers.
  producer.chain.followConsensus();
  const ending = await blockCommitting(producer, change);
  const firstBft = await blockCommitting(producer, ending);
  const secondBft = await blockCommitting(producer, firstBft);
  const header = (n: number) => producer.chain.signedBlockAt(n)!.signed.block.header;
  assert.is(header(ending).commitNum, change, 'the CFT block that ends joint consensus commits the change');
  assert.ok('BftConsensus' in producer.chain.status!.consensus.current.data);
  assert.is(header(secondBft).commitNum, firstBft, 'the BFT leader names its commit index');

  await applyRange(producer.chain, follower.chain, 2, secondBft);
  assert.is(follower.chain.head!.irreversible, change, 'the CFT header counted; the BFT headers naming later blocks did not');
  assert.equal(follower.store.reversibleBlocks(), [ending, firstBft, secondBft], 'their undo records are kept');

  // A restart neither loses that nor takes the headers' word.
  await closeNode(follower, false);
  ctx.follower = openNode(follower.dir, '');
  assert.is(ctx.follower.chain.head!.irreversible, change);
  await ctx.follower.chain.revertTo(ending);
  assert.is(ctx.follower.chain.head!.header.blockNum, ending, 'the BFT blocks can still be reverted');
  // What consensus commits does count.
  await applyRange(producer.chain, ctx.follower.chain, firstBft, secondBft);
  ctx.follower.chain.commitTo(firstBft);
  assert.is(ctx.follower.chain.head!.irreversible, firstBft);
});

irreversibility.run();
