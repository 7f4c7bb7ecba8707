// docs/host-abi.md §6: calls that change the run mode, on a producer and a follower. The producer
// runs each callee (reading the clock, which no two runs share) and records its return value in
// the transaction's subjectiveData, which its TransactionInfo hashes into the block's merkle root;
// the follower replaying the block returns the recorded values (an RPC callee does not run there,
// a CB callee does) and derives the same block id. A block whose subjective data was changed, cut
// short, extended or left out is refused, and a pushed transaction may carry none.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  SignedTransaction, Transaction, accountNumberFromName, bytesToHex, signTransaction, type ActionTrace,
} from '../../../../host-api/index.js';
import type { ReplayedBlock } from '../../../../runtime/chain/received-block.js';
import { deployActions } from '../../../../host-api/boot/deploy-actions.js';
import { RUN_SCRIPT, Script, handleProbeWasm, outputs } from '../../../lib/handle-probe.js';
import {
  applyRange, bootedProducer, closeNode, inBlock, newNode, received, tampered, transaction, type Failure, type Node,
} from './chain-nodes.js';

const HPROBE = accountNumberFromName('hprobe');

interface Ctx { producer: Node; follower: Node; blockNum: number; retval: Uint8Array }
const test = suite<Ctx>('calls that change the run mode, produced and replayed');

/** The first trace of hprobe's script in `trace` (the transaction's action, inside processTransaction). */
function probeTrace(trace: ActionTrace): ActionTrace | undefined {
  for (const { inner } of trace.innerTraces) {
    if (!('ActionTrace' in inner)) continue;
    const t = inner.ActionTrace;
    if (t.action.service === HPROBE && t.action.method === RUN_SCRIPT) return t;
    const found = probeTrace(t);
    if (found) return found;
  }
  return undefined;
}

const calledTraces = (trace: ActionTrace) => trace.innerTraces.flatMap(({ inner }) => ('ActionTrace' in inner ? [inner.ActionTrace] : []));

// The callees read the clock and make a plain call of their own (an inner trace where they run).
const callee = (clock: number) => new Script().time(clock).call(HPROBE, RUN_SCRIPT, new Script().bytes()).bytes();
const script = new Script().call(HPROBE, RUN_SCRIPT, callee(0), 1n).call(HPROBE, RUN_SCRIPT, callee(1), 2n);

async function assertRefused(follower: Node, signed: ReturnType<typeof received>, code: string, reason: string): Promise<void> {
  const head = bytesToHex(follower.chain.head!.blockId);
  const failure = await follower.chain.applyBlock(signed).then(() => undefined, (err: Failure) => err);
  assert.ok(failure, 'the block was applied');
  assert.is(failure!.code, code, failure!.message);
  assert.ok(failure!.message.includes(reason), failure!.message);
  assert.is(bytesToHex(follower.chain.head!.blockId), head, 'the head did not move');
}

test.before(async (ctx) => {
  ctx.producer = await bootedProducer();
  const chain = ctx.producer.chain;
  await inBlock(chain, [signTransaction(transaction(chain, deployActions('hprobe', await handleProbeWasm(), { create: { insecure: true } })), [])]);
  chain.start();
  const trace = await chain.push(signTransaction(transaction(chain, [{ sender: 'hprobe', service: 'hprobe', method: RUN_SCRIPT, rawData: script.bytes() }]), []), 'applied');
  chain.stop();
  assert.is(trace.error, null, trace.error ?? '');
  ctx.retval = probeTrace(trace.actionTraces[0]!)!.rawRetval;
  let num = chain.head!.header.blockNum;
  while (chain.signedBlockAt(num)!.signed.block.transactions.length === 0) num--;
  ctx.blockNum = num;
  ctx.follower = newNode('');
});

test.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

test('the producer runs both callees and puts their return values in the block, in call order', ({ producer, blockNum, retval }) => {
  const [rpc, callback] = outputs(retval);
  for (const value of [rpc!, callback!]) assert.is(outputs(value)[0]!.length, 8, 'each callee read the clock');
  const [trx] = producer.chain.signedBlockAt(blockNum)!.signed.block.transactions;
  assert.equal(trx!.subjectiveData?.map(bytesToHex), [bytesToHex(rpc!), bytesToHex(callback!)]);
});

test('a follower replays the block with the recorded values: the same return value and block id', async (ctx) => {
  const { producer, follower, blockNum } = ctx;
  await applyRange(producer.chain, follower.chain, 2, blockNum - 1);
  const replayed = await follower.chain.applyBlock(received(producer.chain, blockNum)) as ReplayedBlock;
  assert.is(bytesToHex(replayed.blockId), bytesToHex(producer.chain.blockIdAt(blockNum)!));
  const probe = probeTrace(replayed.traces[0]!.actionTraces[0]!)!;
  assert.is(bytesToHex(probe.rawRetval), bytesToHex(ctx.retval), 'the clock readings are the producer\'s');
  const [rpc, callback] = calledTraces(probe);
  assert.is(calledTraces(rpc!).length, 0, 'the RPC callee did not run here');
  assert.is(calledTraces(callback!).length, 1, 'the CB callee ran here');
  assert.is(bytesToHex(callback!.rawRetval), bytesToHex(outputs(ctx.retval)[1]!), 'its caller got the recorded value');
  await applyRange(producer.chain, follower.chain, blockNum + 1, producer.chain.head!.header.blockNum);
});

test('a block whose subjective data differs from what its producer recorded is refused', async (ctx) => {
  const { producer, blockNum } = ctx;
  const follower = newNode('');
  try {
    await applyRange(producer.chain, follower.chain, 2, blockNum - 1);
    const original = received(producer.chain, blockNum);
    const edit = (change: (data: Uint8Array[]) => Uint8Array[] | null) =>
      tampered(original, (b) => { b.block.transactions[0]!.subjectiveData = change(b.block.transactions[0]!.subjectiveData!); });
    await assertRefused(follower, edit((d) => [Uint8Array.of(0, 0, 0, 0), d[1]!]), 'BLOCK_MISMATCH', 'trxMerkleRoot');
    await assertRefused(follower, edit((d) => [d[0]!]), 'BLOCK_TRANSACTION', 'missing subjective data');
    await assertRefused(follower, edit((d) => [...d, new Uint8Array(0)]), 'BLOCK_TRANSACTION', 'transaction has unread subjective data');
    await assertRefused(follower, edit(() => null), 'BLOCK_TRANSACTION', 'Missing subjective data');
    await follower.chain.applyBlock(original);
  } finally {
    await closeNode(follower);
  }
});

test('a pushed transaction may not bring subjective data of its own', async ({ producer }) => {
  const chain = producer.chain;
  const packed = signTransaction(transaction(chain, [{ sender: 'hprobe', service: 'hprobe', method: RUN_SCRIPT, rawData: script.bytes() }]), []);
  const signed = SignedTransaction.unpack(packed);
  assert.ok(Transaction.unpack(signed.transaction), 'a valid transaction otherwise');
  chain.start();
  try {
    const refused = await chain.push(SignedTransaction.pack({ ...signed, subjectiveData: [new Uint8Array(0), new Uint8Array(0)] }), 'applied')
      .then(() => undefined, (err: Failure) => err);
    assert.is(refused?.code, 'TRANSACTION_INVALID');
    assert.match(refused!.message, /subjective data should be set by the block producer/);
  } finally {
    chain.stop();
  }
});

test.run();
