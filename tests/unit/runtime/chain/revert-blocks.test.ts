// docs/chain.md §1.6: blocks above the irreversible one can be taken back to switch forks. A
// chain whose producer set has two producers makes reversible blocks (no confirmations move
// its irreversible block yet); reverting them gives back exactly the earlier state on the
// producer and on a follower, the follower then applies the other fork and ends with the
// producer's state row for row; an irreversible block cannot be reverted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, signTransaction, systemAction, taposReference, type KeyPair } from '../../../../host-api/index.js';
import { deployActions } from '../../../../host-api/boot/deploy-actions.js';
import { compiledService } from '../../services-wasm/program.js';
import {
  AMOUNT, TRANSFER, applyRange, balance, blockTransactionIds, bootedProducer, chainRows, closeNode, differingRows, inBlock, newNode, pushesApplied,
  signedTransactionId, transaction, type Failure, type Node,
} from './chain-nodes.js';

interface Context { producer: Node; follower: Node; alice: KeyPair; forkPoint: number; irreversible: number }
const reverting = suite<Context>('reverting reversible blocks');

const claimless = { service: 0n, rawData: new Uint8Array(0) };

function transfer(ctx: Context, amount: bigint, memo: string): Uint8Array {
  const chain = ctx.producer.chain;
  const action = { sender: 'alice', service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: 'bob', amount, memo }) };
  return signTransaction(transaction(chain, [action], [{ service: 'verify-sig', rawData: ctx.alice.publicKey }]), [ctx.alice]);
}

async function failure(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (err) {
    return err as Failure;
  }
  assert.unreachable('expected a refusal');
  throw new Error('unreachable');
}

reverting.before(async (ctx) => {
  ctx.producer = await bootedProducer();
  const chain = ctx.producer.chain;
  ctx.alice = generateKeyPair();
  await inBlock(chain, [signTransaction(transaction(chain, [systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey }),
    systemAction('root', 'accounts.newAccount', { name: 'bob', authService: 'auth-any', requireMatch: true })]), [])]);
  const tokens = (await compiledService('tokens')).binary;
  await inBlock(chain, [signTransaction(transaction(chain, deployActions('tokens', tokens, { create: { insecure: true }, init: true })), [])]);
  await inBlock(chain, [signTransaction(transaction(chain, [{ sender: 'tokens', service: 'tokens', method: 'mint', rawData: AMOUNT.pack({ to: 'alice', amount: 1000n }) }]), [])]);
  ctx.irreversible = chain.head!.header.blockNum;
  // A second producer: from here on the head's commitNum no longer follows the head.
  await inBlock(chain, [signTransaction(transaction(chain, [systemAction('producers', 'producers.setProducers', {
    prods: [{ name: 'prod', auth: claimless }, { name: 'other', auth: claimless }],
  })]), [])]);
  ctx.forkPoint = chain.head!.header.blockNum;
  await inBlock(chain, [transfer(ctx, 100n, 'one')]);
  await inBlock(chain, [transfer(ctx, 200n, 'two')]);
  ctx.follower = newNode('');
  await applyRange(chain, ctx.follower.chain, 2, chain.head!.header.blockNum);
});

reverting.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

reverting('blocks after the producer set grew are reversible; those before it are not', ({ producer, forkPoint, irreversible }) => {
  const head = producer.chain.head!;
  assert.ok(head.irreversible < head.header.blockNum, `head ${head.header.blockNum}, irreversible ${head.irreversible}`);
  const reversible = [...producer.store.reversibleBlocks()];
  assert.ok(reversible.length >= 3, `reversible: ${reversible.join(', ')}`);
  assert.is(reversible[reversible.length - 1], head.header.blockNum);
  assert.ok(reversible[0]! > irreversible && reversible[0]! <= forkPoint, `first reversible ${reversible[0]}`);
});

reverting('reverting to the fork point restores its state and block log exactly, on producer and follower', async (ctx) => {
  const { producer, follower, forkPoint } = ctx;
  assert.is(balance(producer, 'bob'), 300n);
  const forkRows = await (async () => {
    // The rows at the fork point, as a third chain that applied only that far holds them.
    const witness = newNode('');
    try {
      await applyRange(producer.chain, witness.chain, 2, forkPoint);
      return chainRows(witness.store);
    } finally {
      await closeNode(witness);
    }
  })();
  await producer.chain.revertTo(forkPoint);
  await follower.chain.revertTo(forkPoint);
  for (const node of [producer, follower]) {
    assert.is(node.chain.head!.header.blockNum, forkPoint);
    assert.equal(chainRows(node.store), forkRows, 'every chain row is as at the fork point');
    assert.is(balance(node, 'bob'), 0n);
    assert.is(node.chain.signedBlockAt(forkPoint + 1), undefined, 'the reverted blocks left the block log');
  }
});

reverting('the follower applies the other fork and ends with the producer\'s state', async (ctx) => {
  const { producer, follower, forkPoint } = ctx;
  await inBlock(producer.chain, [transfer(ctx, 7n, 'other fork')]);
  const head = producer.chain.head!.header.blockNum;
  assert.ok(head > forkPoint);
  await applyRange(producer.chain, follower.chain, forkPoint + 1, head);
  assert.is(balance(follower, 'bob'), 7n);
  assert.equal(differingRows(producer.store, follower.store), []);
});

reverting('an irreversible block cannot be reverted, and a refused revert changes nothing', async ({ follower, irreversible }) => {
  const rows = chainRows(follower.store);
  const head = follower.chain.head!.header.blockNum;
  const refused = await failure(follower.chain.revertTo(irreversible - 1));
  assert.is(refused.code, 'CHAIN_IRREVERSIBLE', refused.message);
  assert.match(refused.message, /are irreversible/);
  assert.is(follower.chain.head!.header.blockNum, head);
  assert.equal(chainRows(follower.store), rows);
});

reverting('a producer with its own block open drops it to revert; a push waiting for it to be final goes into a block on the new head', async (ctx) => {
  const { producer, forkPoint } = ctx;
  const chain = producer.chain;
  // Its TaPoS names the fork point, which stays.
  const action = { sender: 'alice', service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: 'bob', amount: 5n, memo: 'pushed again' }) };
  const unsigned = transaction(chain, [action], [{ service: 'verify-sig', rawData: ctx.alice.publicKey }]);
  const signed = signTransaction({ ...unsigned, tapos: { ...unsigned.tapos, ...taposReference(forkPoint, chain.blockIdAt(forkPoint)!) } }, [ctx.alice]);
  chain.start();
  try {
    void chain.push(signed, 'final');
    await pushesApplied(chain);
    await chain.revertTo(forkPoint);
    assert.is(chain.head!.header.blockNum, forkPoint);
    await pushesApplied(chain);
  } finally {
    chain.stop();
  }
  const id = signedTransactionId(signed);
  const holding = [...Array(chain.head!.header.blockNum - forkPoint).keys()].map((i) => forkPoint + 1 + i)
    .filter((num) => blockTransactionIds(chain, num).includes(id));
  assert.is(holding.length, 1, 'one block above the fork point holds the transaction');
});

reverting.run();
