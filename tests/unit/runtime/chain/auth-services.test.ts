// docs/p2p.md §3.4 (updateAuthServices): the verify services and the proof wasm config are part of
// the consensus. Boot puts the bundle's verify services in block 2 (their code in its authCode);
// deploying a service without isVerify changes nothing; giving a service isVerify puts its code in
// that block's authCode and starts joint consensus with the same producers and the new list, which
// ends as any change does; changing a verify service's code or taking its flag away is a change
// too; a follower derives every one of these blocks with the same id and state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CodeFlags } from '../../../../host-api/abi/databases.js';
import { DEFAULT_WASM_CONFIG } from '../../../../host-api/abi/wasm-config.js';
import { accountNumberFromName, bytesToHex, signTransaction, systemAction, unpackBundle, type BlockHeader } from '../../../../host-api/index.js';
import type { StatusRow } from '../../../../host-api/types/native.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { deployActions } from '../../../../host-api/boot/deploy-actions.js';
import { testBundle } from '../../../lib/test-bundle.js';
import { compiledService } from '../../services-wasm/program.js';
import { applyRange, bootedProducer, closeNode, differingRows, inBlock, newNode, transaction, type Node } from './chain-nodes.js';

type Consensus = StatusRow['consensus']['current'];

interface Context { producer: Node; follower: Node; verifiers: { account: bigint; code: Uint8Array }[] }
const test = suite<Context>('verify services in the consensus');

test.before(async (ctx) => {
  const bundle = unpackBundle(await testBundle());
  ctx.verifiers = bundle.services.filter((s) => (s.flags & CodeFlags.isVerify) !== 0n).map((s) => ({ account: s.account, code: s.code }));
  ctx.producer = await bootedProducer();
  ctx.follower = newNode('');
});

test.after(async (ctx) => {
  await closeNode(ctx.producer);
  await closeNode(ctx.follower);
});

const header = (node: Node, n: number): BlockHeader => node.chain.signedBlockAt(n)!.signed.block.header;
const head = (node: Node): number => node.chain.head!.header.blockNum;
const names = (consensus: Consensus | undefined | null): bigint[] | undefined => {
  if (!consensus) return undefined;
  const data = consensus.data as { CftConsensus?: { producers: { name: bigint }[] } };
  return data.CftConsensus!.producers.map((p) => p.name);
};
const serviceList = (consensus: Consensus) => consensus.services.map((s) => [s.codeNum, bytesToHex(s.codeHash)]);

/** The blocks after `from` whose header carries authCode. */
function blocksWithAuthCode(node: Node, from: number): number[] {
  const found: number[] = [];
  for (let n = from + 1; n <= head(node); n++) if (header(node, n).authCode) found.push(n);
  return found;
}

/** Runs `actions` in one transaction of the producer, then two empty blocks (a sole producer ends joint consensus). */
async function run(node: Node, actions: unknown[]): Promise<void> {
  await inBlock(node.chain, [signTransaction(transaction(node.chain, actions), [])]);
  await inBlock(node.chain, []);
  await inBlock(node.chain, []);
  await inBlock(node.chain, []);
}

const setFlags = (service: string, flags: bigint) => systemAction('setcode', 'setcode.setFlags', { service, flags });

test("boot: block 2's authCode holds the bundle's verify services' code, and the consensus lists them with psibase's wasm config", ({ producer, verifiers }) => {
  assert.ok(verifiers.length > 0, 'the bundle has a verify service');
  const genesis = header(producer, 2);
  assert.equal(genesis.authCode!.map((c) => bytesToHex(c.code)), verifiers.map((v) => bytesToHex(v.code)));
  const expected = [...verifiers].sort((a, b) => (a.account < b.account ? -1 : 1)).map((v) => [v.account, bytesToHex(sha256(v.code))]);
  assert.equal(serviceList(genesis.newConsensus!), expected);
  assert.equal(genesis.newConsensus!.wasmConfig, DEFAULT_WASM_CONFIG);
  const status = producer.chain.status!;
  assert.equal(serviceList(status.consensus.current), expected);
  assert.equal(status.consensus.current.wasmConfig, DEFAULT_WASM_CONFIG);
  assert.equal(blocksWithAuthCode(producer, 2), [], 'the rest of the boot (finishBoot writes the same wasm config) changes nothing');
});

test('deploying a service without isVerify changes neither header nor consensus', async ({ producer }) => {
  const before = head(producer);
  const current = serviceList(producer.chain.status!.consensus.current);
  await run(producer, deployActions('plainsvc', (await compiledService('example')).binary, { create: { insecure: true } }));
  assert.equal(blocksWithAuthCode(producer, before), []);
  for (let n = before + 1; n <= head(producer); n++) assert.is(header(producer, n).newConsensus, null, `block ${n}`);
  assert.equal(serviceList(producer.chain.status!.consensus.current), current);
});

test('giving a service isVerify: its code in authCode, joint consensus with the same producers and the new list', async ({ producer }) => {
  const before = head(producer);
  const old = producer.chain.status!.consensus.current;
  const code = (await compiledService('example')).binary;
  await run(producer, [...deployActions('zverify', code, { create: { insecure: true } }), setFlags('zverify', CodeFlags.isVerify)]);
  const [change, ...more] = blocksWithAuthCode(producer, before);
  assert.ok(change, 'a block carries authCode');
  assert.equal(more, []);
  const changed = header(producer, change);
  assert.equal(changed.authCode!.map((c) => bytesToHex(c.code)), [bytesToHex(code)]);
  const next = changed.newConsensus!;
  assert.ok(next, 'the change block carries newConsensus');
  assert.equal(names(next), names(old), 'the same producers');
  assert.equal(serviceList(next), [...serviceList(old), [accountNumberFromName('zverify'), bytesToHex(sha256(code))]], 'the new list, by account');
  assert.equal(next.wasmConfig, old.wasmConfig);
  assert.is(changed.commitNum, change - 1, 'the change block is not final by itself');
  assert.is(header(producer, change + 2).commitNum, change + 2, 'joint consensus is over: final at once again');
  const status = producer.chain.status!;
  assert.is(status.consensus.next, null);
  assert.equal(status.consensus.current, next);
});

test('a second service with code already verifying carries no code; new code for a verify service, or dropping its flag, is a change', async ({ producer }) => {
  const code = (await compiledService('example')).binary;
  let before = head(producer);
  await run(producer, [...deployActions('aaverify', code, { create: { insecure: true } }), setFlags('aaverify', CodeFlags.isVerify)]);
  let [change] = blocksWithAuthCode(producer, before);
  assert.equal(header(producer, change!).authCode, [], 'its code is already in the consensus');
  const accounts = serviceList(header(producer, change!).newConsensus!).map(([account]) => account as bigint);
  assert.equal(accounts, [...accounts].sort((a, b) => (a < b ? -1 : 1)));
  assert.ok(accounts.includes(accountNumberFromName('aaverify')));

  before = head(producer);
  const tokens = (await compiledService('tokens')).binary;
  await run(producer, [systemAction('zverify', 'setcode.setCode', { service: 'zverify', vmType: 0, vmVersion: 0, code: tokens })]);
  [change] = blocksWithAuthCode(producer, before);
  assert.equal(header(producer, change!).authCode!.map((c) => bytesToHex(c.code)), [bytesToHex(tokens)]);

  before = head(producer);
  await run(producer, [setFlags('zverify', 0n)]);
  [change] = blocksWithAuthCode(producer, before);
  assert.equal(header(producer, change!).authCode, [], 'nothing new to carry');
  const services = producer.chain.status!.consensus.current.services.map((s) => s.codeNum);
  assert.not.ok(services.includes(accountNumberFromName('zverify')));
  assert.ok(services.includes(accountNumberFromName('aaverify')));
});

test('the follower derives every block with the same id and state', async ({ producer, follower }) => {
  await applyRange(producer.chain, follower.chain, 2, head(producer));
  assert.equal(differingRows(producer.store, follower.store), []);
  assert.equal(follower.chain.status!.consensus, producer.chain.status!.consensus);
});

test.run();
