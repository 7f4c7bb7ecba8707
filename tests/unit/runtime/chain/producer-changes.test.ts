// docs/p2p.md §3.4 and §6.1 on a producing chain and a follower applying its blocks: genesis
// installs the boot producer through newConsensus; a change of producers is pending from its
// block (which carries it as newConsensus), joint consensus ends once that block is irreversible,
// a sole producer of both sets ends it two blocks later and its blocks are final again; a change
// that adds a producer stays joint (nothing confirms without CFT running), its blocks reversible;
// every block re-derives the same id on the follower.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, signTransaction, systemAction } from '../../../../host-api/index.js';
import type { StatusRow } from '../../../../host-api/types/native.js';
import { applyRange, bootedProducer, closeNode, differingRows, inBlock, newNode, transaction, type Node } from './chain-nodes.js';

const claimless = { service: 0n, rawData: new Uint8Array(0) };
const prod = accountNumberFromName('prod');
const other = accountNumberFromName('other');

interface Context { producer: Node; follower: Node }
const changes = suite<Context>('producer changes and joint consensus');

changes.before(async (ctx) => {
  ctx.producer = await bootedProducer();
  ctx.follower = newNode('');
});

changes.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

function setProducers(node: Node, names: bigint[]): Uint8Array {
  return signTransaction(transaction(node.chain, [systemAction('producers', 'producers.setProducers', {
    prods: names.map((name) => ({ name, auth: claimless })),
  })]), []);
}

function namesOf(consensus: StatusRow['consensus']['current'] | null | undefined): bigint[] | undefined {
  if (!consensus) return undefined;
  const data = consensus.data as { CftConsensus?: { producers: { name: bigint }[] } };
  return data.CftConsensus!.producers.map((p) => p.name);
}

/** The number of the block holding the last transaction pushed, found by its newConsensus. */
function blockWithNewConsensus(node: Node, from: number): number {
  for (let n = from; n <= node.chain.head!.header.blockNum; n++) {
    if (node.chain.signedBlockAt(n)!.signed.block.header.newConsensus) return n;
  }
  throw new Error(`no block from ${from} carries newConsensus`);
}

changes('genesis installs the boot producer: block 2 carries it as newConsensus, and block 3 on it is the current set', ({ producer }) => {
  const genesis = producer.chain.signedBlockAt(2)!.signed.block.header;
  assert.equal(namesOf(genesis.newConsensus), [prod]);
  assert.is(genesis.commitNum, 2, 'block 2 is final at once');
  const status = producer.chain.status!;
  assert.equal(namesOf(status.consensus.current), [prod]);
  assert.is(status.consensus.next, null);
  assert.is(producer.chain.head!.irreversible, producer.chain.head!.header.blockNum);
});

changes('the sole producer of both sets ends joint consensus two blocks after the change; its blocks are final again', async ({ producer }) => {
  const before = producer.chain.head!.header.blockNum;
  await inBlock(producer.chain, [setProducers(producer, [prod])]);
  await inBlock(producer.chain, []);
  await inBlock(producer.chain, []);
  await inBlock(producer.chain, []);
  const change = blockWithNewConsensus(producer, before + 1);
  const header = (n: number) => producer.chain.signedBlockAt(n)!.signed.block.header;
  assert.equal(namesOf(header(change).newConsensus), [prod]);
  assert.is(header(change).commitNum, change - 1, 'the change\'s block is not final by itself');
  assert.is(header(change + 1).commitNum, change, 'the next block commits it: its producer is alone in both sets');
  assert.is(header(change + 2).commitNum, change + 2, 'joint consensus is over: final at once again');
  assert.is(producer.chain.status!.consensus.next, null);
});

changes('a change that adds a producer stays joint: "Consensus update pending" for another, and the blocks stay reversible', async ({ producer }) => {
  const before = producer.chain.head!.header.blockNum;
  await inBlock(producer.chain, [setProducers(producer, [prod, other])]);
  const change = blockWithNewConsensus(producer, before + 1);
  await inBlock(producer.chain, []);
  const status = producer.chain.status!;
  assert.equal(namesOf(status.consensus.current), [prod]);
  assert.equal(namesOf(status.consensus.next?.consensus), [prod, other]);
  assert.is(status.consensus.next!.blockNum, change);
  const head = producer.chain.head!;
  assert.ok(head.irreversible < change, `irreversible ${head.irreversible}, change ${change}`);
  assert.ok(producer.store.reversibleBlocks().includes(head.header.blockNum));
  producer.chain.start();
  try {
    const trace = await producer.chain.push(setProducers(producer, [prod]), 'applied');
    assert.match(trace.error ?? '', 'Consensus update pending');
  } finally {
    producer.chain.stop();
  }
});

changes('the follower derives every block of the changes with the same id and state', async ({ producer, follower }) => {
  await applyRange(producer.chain, follower.chain, 2, producer.chain.head!.header.blockNum);
  assert.equal(differingRows(producer.store, follower.store), []);
});

changes.run();
