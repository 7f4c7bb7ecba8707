// docs/p2p.md §6.1 and §7 with real node processes, after psibase's test_snapshot.py: a booted
// node hands the chain to three CFT producers, then to four BFT producers, schedules snapshots
// (transact::setSnapTime) and hands it back to three CFT producers, BFT's leader among them, which
// goes on leading its term under CFT; each switch goes through joint consensus (CFT→BFT: a leader
// of the old set, an old majority and a new BFT quorum; BFT→CFT: BFT's leader, an old BFT quorum
// and a new majority). Then a stopped producer's database gives a snapshot that loads into a new
// node e, a gzip snapshot of e (stopped) loads into f; e and f follow the chain and become two of
// three CFT producers that go on making blocks irreversible. A fresh node g linked only to e gets
// the state by snapshot transfer (§7.4), and so does h, linked to g before g had anything.
// psibase also checks x-admin's admin_accounts on e; tsibase does not serve that endpoint
// (docs/administration.md), so there is nothing to check.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { accountNumberFromName } from '../../../host-api/names/index.js';
import type { Claim } from '../../../host-api/types/index.js';
import { runCli } from '../../lib/cli-process.js';
import type { RunningNode } from '../../lib/node-process.js';
import { connectPeer, peersOf, waitUntil } from '../../lib/node-network.js';
import {
  clientOf, generatedClaim, headerOf, setConsensus, setProducers, startProducer, urlOf, waitForProducerSet, type HeadHeader, type ProducerNode,
} from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const NAMES = ['prod', 'bprod', 'cprod', 'dprod'];
/** The producers after the snapshot nodes took over: e, f and one that no node runs. */
const LAST_NAMES = ['eprod', 'fprod', 'missing'];

/** `cftNames`: the three CFT producers BFT hands the chain back to. */
interface Context { dir: string; nodes: ProducerNode[]; cftNames: string[]; loaded: ProducerNode[]; fresh: ProducerNode[] }
const test = suite<Context>('CFT → BFT → CFT, then snapshots of it');

const producer = (dir: string, args: string[]) => startProducer(dir, args, BLOCK_MS);

/** The node's head block id and header. */
async function headOf(node: RunningNode): Promise<{ id: string; header: HeadHeader }> {
  const { headBlock } = await clientOf(node).graphql('explorer', '{ headBlock { id header { blockNum commitNum term producer } } }') as { headBlock: { id: string; header: HeadHeader } };
  return headBlock;
}

interface ChainHeader extends HeadHeader { readonly newConsensus: object | null }

async function headerAt(node: RunningNode, num: number): Promise<ChainHeader> {
  const { block } = await clientOf(node).graphql('explorer', `{ block(num: ${num}) { header { blockNum commitNum term producer newConsensus { __typename } } } }`) as { block: { header: ChainHeader } };
  return block.header;
}

/**
 * The first change of consensus in a block after `after` (docs/p2p.md §6.1): the last block of
 * its joint consensus (the first whose commitNum reaches the change's block) and the first block
 * after it, made under the new set alone. Boot's changes (its producer, its verify services) come
 * before any `after` the test passes.
 */
async function switchAfter(node: RunningNode, after: number): Promise<{ last: ChainHeader; first: ChainHeader }> {
  let start = after + 1;
  while (!(await headerAt(node, start)).newConsensus) start++;
  let last = await headerAt(node, start);
  while (last.commitNum < start) last = await headerAt(node, last.blockNum + 1);
  return { last, first: await headerAt(node, last.blockNum + 1) };
}

/** BFT's leader of a term: the producers sorted as u64, round robin (§5.1). */
function bftLeaderOf(term: number): string {
  const sorted = [...NAMES].sort((x, y) => (accountNumberFromName(x) < accountNumberFromName(y) ? -1 : 1));
  return sorted[term % sorted.length]!;
}

/** Waits until `node` has a block past `num` that `peer` has too (the same chain); if it never does, says what its log ends with. */
async function pastBlock(node: RunningNode, peer: RunningNode, num: number): Promise<void> {
  const head = await waitUntil(() => `${node.api} past block ${num}; its log ends with:\n${node.output().split('\n').slice(-15).join('\n')}`, async () => {
    const h = await headOf(node);
    return h.header.blockNum > num ? h : undefined;
  }, 30_000);
  const id = await waitUntil(`${peer.api} has block ${head.header.blockNum}`, async () => {
    const { block } = await clientOf(peer).graphql('explorer', `{ block(num: ${head.header.blockNum}) { id } }`) as { block: { id: string } | null };
    return block?.id;
  });
  assert.is(head.id, id, `${node.api} follows ${peer.api}'s chain`);
}

/** Waits until the node's head commits a block past `num` (irreversibility moves on). */
function committingPast(node: RunningNode, num: number, what: string): Promise<HeadHeader> {
  return waitUntil(what, async () => {
    const header = await headerOf(node);
    return header.commitNum > num ? header : undefined;
  }, 40_000);
}

/** The numbers of the snapshot blocks a node keeps the state of (their files start with the number). */
function keptSnapshots(nodeDir: string): number[] {
  const dir = join(nodeDir, 'snapshot-states');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.rows')).map((f) => Number(f.split('-')[0])) : [];
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-bft-switch-'));
  ctx.loaded = [];
  ctx.fresh = [];
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ctx.nodes = [await producer(join(ctx.dir, 'a'), ['-p', NAMES[0]!, '--boot', bundle])];
  for (const [i, name] of NAMES.slice(1).entries()) {
    const peers = ctx.nodes.flatMap((n) => ['--peer', urlOf(n)]);
    ctx.nodes.push(await producer(join(ctx.dir, 'bcd'[i]!), ['-p', name, ...peers]));
  }
  await waitUntil('four producers fully linked', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 3));
});

test.after(async (ctx) => {
  await Promise.all([...ctx.nodes, ...ctx.loaded, ...ctx.fresh].map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});
test('CFT(3) → BFT(4) → CFT(3) through producers::setConsensus, with snapshots scheduled under BFT', async (ctx) => {
  const [a] = ctx.nodes;
  const claims: Claim[] = [];
  for (const node of ctx.nodes) claims.push(await generatedClaim(node));
  await setConsensus(a!, 'CftConsensus', NAMES.slice(0, 3), claims.slice(0, 3));
  await waitForProducerSet(ctx.nodes, NAMES.slice(0, 3));
  const beforeBft = (await headerOf(a!)).blockNum;
  await setConsensus(a!, 'BftConsensus', NAMES, claims);
  await waitForProducerSet(ctx.nodes, NAMES);
  // BFT runs: blocks of its round-robin leader are made irreversible by the four's commits.
  const toBft = await switchAfter(a!, beforeBft);
  assert.ok(NAMES.slice(0, 3).includes(toBft.last.producer), 'an old CFT producer leads the joint consensus');
  assert.ok(toBft.first.term > toBft.last.term, `BFT begins a term of its own (${toBft.first.term} after ${toBft.last.term})`);
  const bftHead = await committingPast(a!, toBft.first.blockNum, 'BFT commits its own blocks');
  assert.is(bftHead.producer, bftLeaderOf(bftHead.term), `the BFT leader of term ${bftHead.term}`);
  await clientOf(a!).push([systemAction('transact', 'transact.setSnapTime', { seconds: 5 })], { waitFor: 'final' });
  // Back to three CFT producers, among them BFT's leader: it stays leader of its term under CFT (§6.1).
  const leader = (await headerOf(a!)).producer;
  const picked = [leader, ...NAMES.filter((name) => name !== leader).slice(0, 2)];
  ctx.cftNames = NAMES.filter((name) => picked.includes(name));
  const beforeCft = (await headerOf(a!)).blockNum;
  await setConsensus(a!, 'CftConsensus', ctx.cftNames, ctx.cftNames.map((name) => claims[NAMES.indexOf(name)]!));
  await waitForProducerSet(ctx.nodes, ctx.cftNames);
  const toCft = await switchAfter(a!, beforeCft);
  assert.is(toCft.last.producer, leader, 'BFT\'s leader leads the joint consensus');
  assert.is(toCft.first.producer, leader, 'and then CFT');
  assert.is(toCft.first.term, toCft.last.term, 'in the same term');
  const cftHead = await committingPast(a!, toCft.first.blockNum, 'CFT commits its own blocks');
  assert.ok(ctx.cftNames.includes(cftHead.producer), `${cftHead.producer} is a CFT producer`);
  for (const node of ctx.nodes) {
    assert.not.match(node.output(), 'was refused', node.dir);
    assert.not.match(node.output(), 'Consensus failure', node.dir);
  }
});

test('snapshots of a stopped producer and of a snapshot-loaded node load; those nodes follow and take over production', async (ctx) => {
  // a, one of the three CFT producers, is stopped for its snapshot; b and c go on.
  const [a, b, c] = ctx.cftNames.map((name) => ctx.nodes[NAMES.indexOf(name)]!) as [ProducerNode, ProducerNode, ProducerNode];
  // A snapshot scheduled after the switch back, signed by a CFT producer once irreversible (§7.2).
  const switchedBack = (await headerOf(a)).blockNum;
  const scheduled = await waitUntil('a keeps the state of a snapshot made under CFT', async () => keptSnapshots(a.dir).find((n) => n > switchedBack), 20_000);
  // A kept state is signed once irreversibility moves past its block.
  await committingPast(a, scheduled, `a signs the snapshot of block ${scheduled}`);
  await a.stop();
  const plain = join(ctx.dir, 'stopped.snapshot');
  const created = await runCli('', ['create-snapshot', a.dir, plain]);
  assert.is(created.status, 0, created.stderr);
  const eDir = join(ctx.dir, 'e');
  const loadedE = await runCli('', ['load-snapshot', eDir, plain]);
  assert.is(loadedE.status, 0, loadedE.stderr);
  const snapshotNum = Number(/block (\d+)/.exec(loadedE.stderr)?.[1]);
  assert.ok(snapshotNum >= scheduled, loadedE.stderr);
  // A state loaded from a snapshot makes snapshots in turn.
  const gzip = join(ctx.dir, 'e.snapshot.gz');
  const createdE = await runCli('', ['create-snapshot', '--gzip', eDir, gzip]);
  assert.is(createdE.status, 0, createdE.stderr);
  const loadedF = await runCli('', ['load-snapshot', join(ctx.dir, 'f'), gzip]);
  assert.is(loadedF.status, 0, loadedF.stderr);
  const e = await producer(eDir, ['-p', 'eprod', '--peer', urlOf(b), '--peer', urlOf(c)]);
  ctx.loaded.push(e);
  const f = await producer(join(ctx.dir, 'f'), ['-p', 'fprod', '--peer', urlOf(e), '--peer', urlOf(b), '--peer', urlOf(c)]);
  ctx.loaded.push(f);
  // b and c (a majority of the three) go on without a: e and f get new blocks.
  await pastBlock(e, b, snapshotNum);
  await pastBlock(f, b, snapshotNum);
  await setProducers(b, LAST_NAMES);
  const running = [b, c, e, f];
  await waitForProducerSet(running, LAST_NAMES);
  const handedOver = (await headerOf(e)).blockNum;
  const head = await committingPast(e, handedOver, 'e and f make blocks irreversible');
  assert.ok(['eprod', 'fprod'].includes(head.producer), `${head.producer} leads`);
  await committingPast(f, handedOver, 'f follows irreversibility');
  for (const node of running) assert.not.match(node.output(), 'was refused', node.dir);
});

test('a fresh node linked only to a snapshot-loaded node gets the snapshot over P2P, and passes it on', async (ctx) => {
  const [e] = ctx.loaded as [ProducerNode];
  // h is linked to g while g has nothing; then g links to e.
  const h = await producer(join(ctx.dir, 'h'), []);
  ctx.fresh.push(h);
  const g = await producer(join(ctx.dir, 'g'), ['--peer', urlOf(h)]);
  ctx.fresh.push(g);
  await waitUntil('g linked to h', async () => (await peersOf(h)).length === 1);
  assert.is((await connectPeer(g, urlOf(e))).status, 200);
  const num = (await headerOf(e)).blockNum;
  await pastBlock(g, e, num);
  await pastBlock(h, e, num);
  assert.match(e.output(), /sent the snapshot of block \d+/);
  assert.match(g.output(), /loaded the snapshot of block \d+/);
  assert.match(h.output(), /loaded the snapshot of block \d+/);
});

test.run();
