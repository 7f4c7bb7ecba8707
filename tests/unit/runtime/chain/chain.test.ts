// docs/chain.md §1-5 with the real system services: boot from a bundle (genesis, startBoot, the boot
// list, finishBoot), then signed and rejected transactions in produced blocks, and a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  accountNumberFromName, blockId, bootTransactions, bytesToHex, merkleRoot, methodNumberFromName, compileSchema, generateKeyPair, signTransaction, systemAction,
  taposReference, Transaction, unpackBundle, type Block, type KeyPair,
} from '../../../../host-api/index.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { readBlock } from '../../../../runtime/chain/block-log.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { testBundle } from '../../../lib/test-bundle.js';

const INCREMENT_ARGS = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } });
const RESET_ARGS = compileSchema({}).typeOf({ Object: { name: 'string' } });
const MERKLE_EVENT = compileSchema({}).typeOf({
  Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: { Object: { owner: 'AccountNumber', name: 'string' } } } },
});

interface Context { dir: string; store: LmdbStore; chain: Chain; alice: KeyPair }
const test = suite<Context>('chain');

function openChain(ctx: Context): void {
  ctx.store = LmdbStore.open(ctx.dir);
  ctx.chain = new Chain(ctx.store, new Engine(), { producer: 'prod', blockIntervalMs: 100 });
}

/** A transaction on top of the current head, expiring in a minute. */
function transaction(chain: Chain, actions: unknown[], claims: unknown[] = [], expiresIn = 60) {
  const head = chain.status!.head!;
  return {
    tapos: { expiration: BigInt(Math.floor(Date.now() / 1000) + expiresIn), ...taposReference(head.header.blockNum, head.blockId), flags: 0 },
    actions,
    claims,
  };
}

const increment = (sender: string, by: number) =>
  ({ sender, service: 'example', method: 'increment', rawData: INCREMENT_ARGS.pack({ name: 'n', by: BigInt(by) }) });

test.before(async (ctx) => {
  const bundle = unpackBundle(await testBundle());
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-chain-'));
  openChain(ctx);
  const boot = bootTransactions(bundle, { producer: 'prod' });
  const trace = ctx.chain.boot(boot.pushBoot);
  assert.is(trace.error, null, 'push_boot');
  for (const t of boot.later) {
    const r = await ctx.chain.push(t, 'applied');
    assert.is(r.error, null, 'boot transaction');
  }
  ctx.alice = generateKeyPair();
});

test.after(async (ctx) => {
  ctx.chain.stop();
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('block 2 exists with the boot transactions; the chain id is its id', ({ chain, store }) => {
  const block2 = readBlock(store, 2)!;
  assert.is(block2.transactions.length, 3);
  assert.is(block2.header.commitNum, 2);
  const status = chain.status!;
  assert.equal(status.chainId, blockId(block2.header));
  assert.ok(status.current.blockNum >= 3, 'production continues after boot');
});

test('push_boot on a chain is refused', ({ chain }) => {
  assert.throws(() => chain.boot(new Uint8Array([0, 0, 0, 0])), (e: Error & { code?: string }) => e.code === 'CHAIN_ALREADY_BOOTED');
});

test('after finishBoot, an account with a key pushes a signed transaction', async (ctx) => {
  const { chain, alice } = ctx;
  const create = await chain.push(signTransaction(transaction(chain, [
    systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: alice.publicKey }),
  ]), []), 'applied');
  assert.is(create.error, null);
  const claims = [{ service: 'verify-sig', rawData: alice.publicKey }];
  const trace = await chain.push(signTransaction(transaction(chain, [increment('alice', 5)], claims), [alice]), 'final');
  assert.is(trace.error, null);
});

test('rejected: bad signature, unsigned, wrong key', async ({ chain, alice }) => {
  const claims = [{ service: 'verify-sig', rawData: alice.publicKey }];
  const other = generateKeyPair();
  let failed: (Error & { code?: string }) | undefined;
  try {
    await chain.push(signTransaction(transaction(chain, [increment('alice', 1)], claims), [other]), 'applied');
  } catch (err) {
    failed = err as Error & { code?: string };
  }
  assert.is(failed?.code, 'TRANSACTION_PROOFS');
  assert.match(failed!.message, /signature invalid/);
  const unsigned = await chain.push(signTransaction(transaction(chain, [increment('alice', 1)]), []), 'applied');
  assert.match(unsigned.error!, /claim for the key/);
  const wrongKey = await chain.push(signTransaction(transaction(chain, [increment('alice', 1)], [{ service: 'verify-sig', rawData: other.publicKey }]), [other]), 'applied');
  assert.match(wrongKey.error!, /claim for the key/);
});

test('rejected: expired, too early, duplicate, bad TaPoS', async ({ chain, alice }) => {
  const claims = [{ service: 'verify-sig', rawData: alice.publicKey }];
  const expired = await chain.push(signTransaction(transaction(chain, [increment('alice', 1)], claims, -10), [alice]), 'applied');
  assert.match(expired.error!, /transaction has expired/);
  const early = await chain.push(signTransaction(transaction(chain, [increment('alice', 1)], claims, 7200), [alice]), 'applied');
  assert.match(early.error!, /submitted too early/);
  const once = signTransaction(transaction(chain, [increment('alice', 2)], claims), [alice]);
  assert.is((await chain.push(once, 'applied')).error, null);
  assert.match((await chain.push(once, 'applied')).error!, /duplicate transaction/);
  const bad = transaction(chain, [increment('alice', 3)], claims);
  bad.tapos.refBlockSuffix = (bad.tapos.refBlockSuffix ^ 1) >>> 0;
  assert.match((await chain.push(signTransaction(bad, [alice]), 'applied')).error!, /non-existing block/);
});

test('eventMerkleRoot is the merkle root of the merkle events the block wrote (docs/chain.md §1)', async ({ chain, store, alice }) => {
  const claims = [{ service: 'verify-sig', rawData: alice.publicKey }];
  const reset = { sender: 'alice', service: 'example', method: 'reset', rawData: RESET_ARGS.pack({ name: 'n' }) };
  const trace = await chain.push(signTransaction(transaction(chain, [reset], claims), [alice]), 'final');
  assert.is(trace.error, null);
  let num = chain.status!.head!.header.blockNum;
  let block = readBlock(store, num)!;
  const hasReset = (b: Block) => b.transactions.some((t) => Transaction.unpack(t.transaction).actions.some((a) => a.method === methodNumberFromName('reset')));
  while (!hasReset(block)) block = readBlock(store, --num)!;
  const event = MERKLE_EVENT.pack({
    service: accountNumberFromName('example'),
    type: methodNumberFromName('counterReset'),
    data: { owner: accountNumberFromName('alice'), name: 'n' },
  });
  assert.is(bytesToHex(block.header.eventMerkleRoot), bytesToHex(merkleRoot([event])));
  const before = readBlock(store, num - 1)!;
  assert.is(bytesToHex(before.header.eventMerkleRoot), '00'.repeat(32), 'a block without merkle events has the empty root');
});

test('a restarted node keeps its chain and produces on top of it', async (ctx) => {
  ctx.chain.stop();
  const head = ctx.chain.status!.head!.header.blockNum;
  await ctx.store.close();
  openChain(ctx);
  assert.ok(ctx.chain.hasChain);
  assert.is(ctx.chain.status!.head!.header.blockNum, head);
  ctx.chain.start();
  const claims = [{ service: 'verify-sig', rawData: ctx.alice.publicKey }];
  const trace = await ctx.chain.push(signTransaction(transaction(ctx.chain, [increment('alice', 1)], claims), [ctx.alice]), 'final');
  assert.is(trace.error, null);
  assert.ok(ctx.chain.status!.head!.header.blockNum > head);
});

test.run();
