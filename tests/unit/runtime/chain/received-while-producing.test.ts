// docs/p2p.md §3.4 on a chain that is producing: a received block that checks out goes on the
// head even while the chain has a block of its own open. The open block is dropped (psibase
// cancels its pending block when the head changes), and a push waiting for it to be final is
// pushed again, into the next block. The end of a slot (or a stop) that comes while the received
// block is being verified waits for it, so the head does not move under the block. A refused
// block leaves the open block as it was.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, generateKeyPair, signTransaction, systemAction, type KeyPair } from '../../../../host-api/index.js';
import {
  applyRange, blockTransactionIds, bootedProducer, closeNode, inBlock, newNode, pushesApplied, received, signedTransactionId, tampered, transaction,
  type Failure, type Node,
} from './chain-nodes.js';

const CLOCK_BEHIND_MS = 60 * 60_000;

/** `maker` makes the blocks `producer` receives; both produce as prod, so both can open blocks. */
interface Context { maker: Node; producer: Node; alice: KeyPair }
const test = suite<Context>('a block received while the chain produces');

/** A transaction signed by alice (its proof is verified off the main thread). */
function signedByAlice(ctx: Context, node: Node, name: string): Uint8Array {
  const action = systemAction('root', 'accounts.newAccount', { name, authService: 'auth-any', requireMatch: true });
  return signTransaction(transaction(node.chain, [{ ...action, sender: 'alice' }], [{ service: 'verify-sig', rawData: ctx.alice.publicKey }]), [ctx.alice]);
}

/** The maker takes the producer's blocks, then makes one holding `transactions`: the block after the producer's head, as received. */
async function nextBlockFromMaker(ctx: Context, transactions: (node: Node) => Uint8Array[]) {
  const { maker, producer } = ctx;
  const head = producer.chain.head!.header.blockNum;
  await applyRange(producer.chain, maker.chain, maker.chain.head!.header.blockNum + 1, head);
  await inBlock(maker.chain, transactions(maker));
  return received(maker.chain, head + 1);
}

test.before(async (ctx) => {
  const booted = await bootedProducer();
  ctx.alice = generateKeyPair();
  const chain = booted.chain;
  await inBlock(chain, [signTransaction(transaction(chain, [systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey })]), [])]);
  // Both clocks run an hour behind, so that their slots (timed from the head) outlast the test:
  // their blocks close when the test stops them, not on their own.
  const behind = { now: () => Date.now() - CLOCK_BEHIND_MS };
  ctx.maker = newNode('prod', undefined, behind);
  ctx.producer = newNode('prod', undefined, behind);
  for (const node of [ctx.maker, ctx.producer]) await applyRange(chain, node.chain, 2, chain.head!.header.blockNum);
  await closeNode(booted);
});

test.after(async (ctx) => {
  await closeNode(ctx.maker);
  await closeNode(ctx.producer);
});

test('the open block is dropped for the received block, and its push goes into the next block', async (ctx) => {
  const { maker, producer } = ctx;
  const block = await nextBlockFromMaker(ctx, (node) => [signedByAlice(ctx, node, 'frommaker')]);
  const parent = producer.chain.head!.header.blockNum;
  producer.chain.start();
  const mine = signedByAlice(ctx, producer, 'fromprod');
  void producer.chain.push(mine, 'final');
  await pushesApplied(producer.chain);
  const applied = await producer.chain.applyBlock(block);
  assert.is(bytesToHex(applied.blockId), bytesToHex(maker.chain.blockIdAt(parent + 1)!));
  assert.is(bytesToHex(producer.chain.head!.blockId), bytesToHex(applied.blockId), 'the received block is the head');
  // The push waiting for the dropped block is pushed again: the next block holds it.
  await pushesApplied(producer.chain);
  producer.chain.stop();
  assert.equal(blockTransactionIds(producer.chain, parent + 2), [signedTransactionId(mine)]);
});

test('a stop while the received block is verified waits for it: the head stays its parent until it is in', async (ctx) => {
  const { producer } = ctx;
  const block = await nextBlockFromMaker(ctx, (node) => [signedByAlice(ctx, node, 'secmaker')]);
  const parent = producer.chain.head!.header.blockNum;
  producer.chain.start();
  void producer.chain.push(signedByAlice(ctx, producer, 'secprod'), 'final');
  await pushesApplied(producer.chain);
  const applying = producer.chain.applyBlock(block);
  // The verification of alice's proof answers after this turn; stopping now must not close the open block on the parent.
  setImmediate(() => producer.chain.stop());
  const applied = await applying;
  assert.is(applied.block.header.blockNum, parent + 1);
});

test('a refused block leaves the open block open', async (ctx) => {
  const { producer } = ctx;
  const block = await nextBlockFromMaker(ctx, () => []);
  const parent = producer.chain.head!.header.blockNum;
  producer.chain.start();
  const mine = signedByAlice(ctx, producer, 'thirdprod');
  void producer.chain.push(mine, 'final');
  await pushesApplied(producer.chain);
  // Refused by the checks before the head would change (a wrong previous).
  const forged = tampered(block, (copy) => { copy.block.header.previous = new Uint8Array(32).fill(7); });
  const refused = await producer.chain.applyBlock(forged).then(() => undefined, (err: Failure) => err);
  assert.ok(refused, 'the forged block was refused');
  producer.chain.stop();
  assert.ok(blockTransactionIds(producer.chain, parent + 1).includes(signedTransactionId(mine)), 'the open block closed with its push');
});

test.run();
