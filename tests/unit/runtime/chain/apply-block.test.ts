// docs/p2p.md §3.4, the receiving side: every block a producing chain made (the boot block, the
// rest of the boot, account creation, a deploy, mints and signed transfers) applied on an empty
// follower chain gives the same block ids and the same state, with unsigned and with signed
// blocks; a block with a forged signature, a wrong previous, a tampered transaction or a tampered
// header field is refused with its reason and leaves the follower as it was; the right block then
// applies, also after the follower's store is reopened.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  SignedBlock, Transaction, accountNumberFromName, blockId, bytesToHex, generateKeyPair, signDigest, signTransaction, systemAction, type KeyPair,
} from '../../../../host-api/index.js';
import { signBlock } from '../../../../runtime/chain/block-signing.js';
import { deployActions } from '../../../../host-api/boot/deploy-actions.js';
import { compiledService } from '../../services-wasm/program.js';
import {
  AMOUNT, TRANSFER, applyRange, balance, bootedProducer, chainRows, closeNode, differingRows, inBlock, newNode, openNode, received, tampered,
  transaction, type Failure, type Node,
} from './chain-nodes.js';

/** Asserts that applying `block` is refused with `code` and a message naming `reason`, and changes nothing. */
async function assertRefused(follower: Node, block: SignedBlock, code: string, reason: string | RegExp): Promise<void> {
  const head = follower.chain.head;
  const rows = chainRows(follower.store);
  const blocks = follower.blocks.length;
  let failure: Failure | undefined;
  try {
    await follower.chain.applyBlock(block);
  } catch (err) {
    failure = err as Failure;
  }
  assert.ok(failure, `block ${block.block.header.blockNum} was applied`);
  assert.is(failure!.code, code, failure!.message);
  if (typeof reason === 'string') assert.ok(failure!.message.includes(reason), failure!.message);
  else assert.match(failure!.message, reason);
  assert.is(bytesToHex(follower.chain.head?.blockId ?? new Uint8Array(0)), bytesToHex(head?.blockId ?? new Uint8Array(0)), 'the head did not move');
  assert.equal(chainRows(follower.store), rows, 'no row changed');
  assert.is(follower.blocks.length, blocks, 'no onBlock');
}

// ---------------------------------------------------------------------------------------------
// Unsigned blocks: a development chain with accounts, a deploy, mints and signed transfers.

interface Unsigned { producer: Node; follower: Node; alice: KeyPair; transferBlock: number }
const unsigned = suite<Unsigned>('applying received unsigned blocks');

/**
 * The setup's chain: accounts, a deploy, a mint and two signed transfers; returns the block that
 * holds both transfers, or undefined when the block timer (100 ms) closed a block between them,
 * which a loaded machine can make happen.
 */
async function transferChain(ctx: Unsigned): Promise<number | undefined> {
  const chain = ctx.producer.chain;
  ctx.alice = generateKeyPair();
  await inBlock(chain, [
    signTransaction(transaction(chain, [
      systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey }),
      systemAction('root', 'accounts.newAccount', { name: 'bob', authService: 'auth-any', requireMatch: true }),
    ]), []),
  ]);
  const tokens = (await compiledService('tokens')).binary;
  await inBlock(chain, [signTransaction(transaction(chain, deployActions('tokens', tokens, { create: { insecure: true }, init: true })), [])]);
  const mint = (to: string, amount: bigint) => ({ sender: 'tokens', service: 'tokens', method: 'mint', rawData: AMOUNT.pack({ to, amount }) });
  await inBlock(chain, [signTransaction(transaction(chain, [mint('alice', 1000n)]), [])]);
  const transfer = (amount: bigint, memo: string) => ({ sender: 'alice', service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: 'bob', amount, memo }) });
  const claims = [{ service: 'verify-sig', rawData: ctx.alice.publicKey }];
  await inBlock(chain, [
    signTransaction(transaction(chain, [transfer(250n, 'first')], claims), [ctx.alice]),
    signTransaction(transaction(chain, [transfer(100n, 'second')], claims), [ctx.alice]),
  ]);
  return blockHolding(chain, 2);
}

/** The newest block with `count` transactions, if the newest block with any has that many. */
function blockHolding(chain: Node['chain'], count: number): number | undefined {
  let num = chain.head!.header.blockNum;
  while (chain.signedBlockAt(num)!.signed.block.transactions.length === 0) num--;
  return chain.signedBlockAt(num)!.signed.block.transactions.length === count ? num : undefined;
}

unsigned.before(async (ctx) => {
  for (let attempt = 1; ; attempt++) {
    ctx.producer = await bootedProducer();
    const transferBlock = await transferChain(ctx);
    if (transferBlock !== undefined) {
      ctx.transferBlock = transferBlock;
      break;
    }
    await closeNode(ctx.producer);
    assert.ok(attempt < 5, 'the two transfers never landed in one block');
  }
  ctx.follower = newNode('');
});

unsigned.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

unsigned('the producer\'s blocks are readable for streaming: SignedBlock, id, head and irreversible block', ({ producer }) => {
  const head = producer.chain.head!;
  assert.is(head.irreversible, head.header.blockNum, 'a single producer\'s head is irreversible');
  const top = producer.chain.signedBlockAt(head.header.blockNum)!;
  assert.is(bytesToHex(top.blockId), bytesToHex(head.blockId));
  assert.is(top.signed.signature.length, 0, 'unsigned');
  assert.is(top.signed.auxConsensusData, null);
  assert.is(producer.chain.signedBlockAt(head.header.blockNum + 1), undefined);
  assert.is(producer.chain.blockIdAt(1), undefined, 'there is no block 1');
  // blockIdAt reads a block's header alone: the same id as the whole block read back gives.
  for (let num = 2; num <= head.header.blockNum; num++) {
    assert.is(bytesToHex(producer.chain.blockIdAt(num)!), bytesToHex(producer.chain.signedBlockAt(num)!.blockId), `block ${num}`);
  }
});

unsigned('an empty node refuses a first block other than the boot block', async ({ producer, follower }) => {
  await assertRefused(follower, received(producer.chain, 3), 'BLOCK_NOT_NEXT', 'the next block is 2');
});

unsigned('an empty follower applies the boot block: the genesis services installed natively, the same chain id', async ({ producer, follower }) => {
  assert.not.ok(follower.chain.hasChain);
  await applyRange(producer.chain, follower.chain, 2, 2);
  assert.ok(follower.chain.hasChain);
  assert.equal(follower.chain.status!.chainId, producer.chain.status!.chainId, 'the same chain id');
});

unsigned('a block that skips ahead or names another previous is refused', async ({ producer, follower }) => {
  const next = follower.chain.head!.header.blockNum + 1;
  await assertRefused(follower, received(producer.chain, next + 1), 'BLOCK_NOT_NEXT', `the next block is ${next}`);
  await assertRefused(follower, tampered(received(producer.chain, next), (b) => { b.block.header.previous = new Uint8Array(32).fill(7); }),
    'BLOCK_NOT_NEXT', 'but the head\'s id is');
});

unsigned('follower: applies every block up to the transfers; no producer name, so it never produces', async (ctx) => {
  const { producer, follower } = ctx;
  await applyRange(producer.chain, follower.chain, follower.chain.head!.header.blockNum + 1, ctx.transferBlock - 1);
  follower.chain.start();
  const push = follower.chain.push(signTransaction(transaction(follower.chain, [systemAction('root', 'accounts.newAccount', { name: 'carol', authService: 'auth-any', requireMatch: true })]), []), 'applied');
  assert.match(await pushRefusal(push), 'does not produce blocks');
});

async function pushRefusal(push: Promise<unknown>): Promise<string> {
  try {
    await push;
  } catch (err) {
    assert.is((err as Failure).code, 'CHAIN_NO_PRODUCER');
    return (err as Error).message;
  }
  return assert.unreachable('the follower applied a pushed transaction') as never;
}

unsigned('tampered header fields are refused: time in the past, producer, commitNum, merkle roots, consensus state', async (ctx) => {
  const { producer, follower } = ctx;
  const right = received(producer.chain, ctx.transferBlock);
  const headTime = follower.chain.head!.header.time;
  await assertRefused(follower, tampered(right, (b) => { b.block.header.time = headTime; }), 'BLOCK_INVALID', 'is in the past');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.producer = accountNumberFromName('mallory'); }),
    'BLOCK_INVALID', '\'mallory\' is not a producer');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.commitNum -= 1; }), 'BLOCK_MISMATCH', '(differing: commitNum)');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.eventMerkleRoot = new Uint8Array(32).fill(1); }),
    'BLOCK_MISMATCH', '(differing: eventMerkleRoot)');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.trxMerkleRoot = new Uint8Array(32).fill(1); }),
    'BLOCK_MISMATCH', '(differing: trxMerkleRoot)');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.consensusState = new Uint8Array(32).fill(1); }),
    'BLOCK_MISMATCH', '(differing: consensusState)');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.authCode = [{ vmType: 0, vmVersion: 0, code: Uint8Array.of(0) }]; }),
    'BLOCK_MISMATCH', '(differing: authCode)');
});

unsigned('tampered transactions are refused: a changed signed transfer, a dropped one, missing or added subjective data', async (ctx) => {
  const { producer, follower } = ctx;
  const right = received(producer.chain, ctx.transferBlock);
  const moreToBob = tampered(right, (b) => {
    const trx = Transaction.unpack(b.block.transactions[0]!.transaction);
    trx.actions[0]!.rawData = TRANSFER.pack({ to: 'bob', amount: 900n, memo: 'first' });
    b.block.transactions[0]!.transaction = Transaction.pack(trx);
  });
  await assertRefused(follower, moreToBob, 'BLOCK_TRANSACTION', /block \d+: transaction 0 \([0-9A-Fa-f]{64}\): .*signature invalid/);
  await assertRefused(follower, tampered(right, (b) => { b.block.transactions.pop(); }), 'BLOCK_MISMATCH', '(differing: trxMerkleRoot)');
  await assertRefused(follower, tampered(right, (b) => { b.block.transactions[1]!.subjectiveData = null; }), 'BLOCK_TRANSACTION', 'Missing subjective data');
  await assertRefused(follower, tampered(right, (b) => { b.block.transactions[1]!.subjectiveData = [Uint8Array.of(1)]; }),
    'BLOCK_TRANSACTION', 'transaction has unread subjective data');
});

unsigned('the right block then applies; the follower has the producer\'s state, balances included', async (ctx) => {
  const { producer, follower } = ctx;
  await applyRange(producer.chain, follower.chain, ctx.transferBlock, producer.chain.head!.header.blockNum);
  assert.is(balance(follower, 'alice'), 650n);
  assert.is(balance(follower, 'bob'), 350n);
  assert.equal(differingRows(producer.store, follower.store), [], 'every chain row is the same on both');
  assert.equal(follower.blocks, producer.blocks, 'onBlock fired for every applied block, with the producer\'s ids');
});

unsigned('a block with aux data applies and is sent on as it came; a restarted follower continues', async (ctx) => {
  const { producer } = ctx;
  await inBlock(producer.chain, [signTransaction(transaction(producer.chain, [
    { sender: 'alice', service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: 'bob', amount: 50n, memo: 'after restart' }) },
  ], [{ service: 'verify-sig', rawData: ctx.alice.publicKey }]), [ctx.alice])]);
  const next = ctx.follower.chain.head!.header.blockNum + 1;
  const withAux = tampered(received(producer.chain, next), (b) => { b.auxConsensusData = Uint8Array.of(1, 2, 3); });
  await ctx.follower.chain.applyBlock(withAux);

  await closeNode(ctx.follower, false);
  ctx.follower = openNode(ctx.follower.dir, '', undefined, ctx.follower.blocks);
  const again = ctx.follower.chain.signedBlockAt(next)!;
  assert.equal(SignedBlock.pack(again.signed), SignedBlock.pack(withAux), 'the block as received, aux data and all');
  await assertRefused(ctx.follower, received(producer.chain, next), 'BLOCK_NOT_NEXT', `the next block is ${next + 1}`);
  await applyRange(producer.chain, ctx.follower.chain, next + 1, producer.chain.head!.header.blockNum);
  assert.is(balance(ctx.follower, 'bob'), 400n);
  assert.equal(differingRows(producer.store, ctx.follower.store), []);
});

unsigned.run();

// ---------------------------------------------------------------------------------------------
// Signed blocks: the producer's claim is a verify-sig key from block 2 on.

interface Signed { producer: Node; follower: Node; blockKey: KeyPair }
const signed = suite<Signed>('applying received signed blocks');

signed.before(async (ctx) => {
  ctx.blockKey = generateKeyPair();
  ctx.producer = await bootedProducer(ctx.blockKey);
  const chain = ctx.producer.chain;
  await inBlock(chain, [signTransaction(transaction(chain, [systemAction('root', 'accounts.newAccount', { name: 'bob', authService: 'auth-any', requireMatch: true })]), [])]);
  ctx.follower = newNode('');
});

signed.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

signed('the boot block is unsigned; the blocks after it carry the block key\'s signature', ({ producer }) => {
  assert.is(producer.chain.signedBlockAt(2)!.signed.signature.length, 0);
  assert.ok(producer.chain.signedBlockAt(3)!.signed.signature.length > 0);
});

signed('forged, missing and foreign signatures and a re-timed block are refused; the right blocks apply', async ({ producer, follower }) => {
  await applyRange(producer.chain, follower.chain, 2, 2);
  const right = received(producer.chain, 3);
  await assertRefused(follower, tampered(right, (b) => { b.signature[5] ^= 1; }), 'BLOCK_SIGNATURE', 'the signature of producer \'prod\' does not verify');
  await assertRefused(follower, tampered(right, (b) => { b.signature = new Uint8Array(0); }), 'BLOCK_SIGNATURE', 'does not verify');
  const other = generateKeyPair();
  await assertRefused(follower, tampered(right, (b) => {
    b.signature = signBlock(blockId(b.block.header), (digest) => signDigest(other, digest));
  }), 'BLOCK_SIGNATURE', 'does not verify');
  // A later time makes another block, which the producer's signature does not cover.
  await assertRefused(follower, tampered(right, (b) => { b.block.header.time += 1_000_000n; }), 'BLOCK_SIGNATURE', 'does not verify');
  await assertRefused(follower, tampered(right, (b) => { b.block.header.commitNum = 1; }), 'BLOCK_SIGNATURE', 'does not verify');
  await applyRange(producer.chain, follower.chain, 3, producer.chain.head!.header.blockNum);
  assert.equal(differingRows(producer.store, follower.store), [], 'every chain row, signatures included, is the same on both');
});

signed.run();
