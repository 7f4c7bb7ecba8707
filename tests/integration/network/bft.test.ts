// docs/p2p.md §5 and §6.1 with real node processes: a booted node (one CFT producer) hands the
// chain to four BFT producers through producers::setConsensus, each with a claim whose key its
// node holds (blocks and BFT messages are signed); the four, fully linked, run BFT:
// in steady state a header's commitNum is two below its blockNum (one miss allowed, as in
// psibase's own test), a transaction pushed with wait_for=final returns on every node, with one
// producer stopped the other three go on making blocks irreversible, and all four stopped and
// started again resume blocks and irreversibility (each keeps the block it had irreversible: a
// BFT header's commitNum proves nothing, §5.4, so that comes from consensus-bft.json). A follower linked to the four checks every
// block it gets (its term's leader, the commit proof in auxConsensusData) and refuses none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { accountNumberFromName } from '../../../host-api/names/index.js';
import type { Claim } from '../../../host-api/types/index.js';
import type { RunningNode } from '../../lib/node-process.js';
import { peersOf, waitUntil } from '../../lib/node-network.js';
import {
  clientOf, generatedClaim, headerOf, irreversibleOf, restartProducer, setConsensus, startProducer, urlOf, waitForProducerSet, type HeadHeader, type ProducerNode,
} from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const NAMES = ['prod', 'bprod', 'cprod', 'dprod'];

/** `nodes` are the producers; `follower` produces nothing and checks what they send (§5.4). */
interface Context { dir: string; nodes: ProducerNode[]; follower: ProducerNode }
const bft = suite<Context>('BFT with four producers');

const producer = (dir: string, args: string[]) => startProducer(dir, args, BLOCK_MS);

/** BFT's leader of a term: the producers sorted as u64, round robin (§5.1); CFT elects anyone. */
function bftLeaderOf(term: number): string {
  const sorted = [...NAMES].sort((a, b) => (accountNumberFromName(a) < accountNumberFromName(b) ? -1 : 1));
  return sorted[term % sorted.length]!;
}

/** The term a producer kept in consensus-bft.json (docs/p2p.md §5.2). */
function keptTerm(node: ProducerNode): number {
  return (JSON.parse(readFileSync(join(node.dir, 'consensus-bft.json'), 'utf8')) as { term: number }).term;
}

/** The last block BFT committed on a producer, as consensus-bft.json keeps it. */
function keptCommitted(node: ProducerNode): number {
  return (JSON.parse(readFileSync(join(node.dir, 'consensus-bft.json'), 'utf8')) as { committed: { num: number } | null }).committed?.num ?? 0;
}

/** Waits until the node's head commits a block past `num` with a lag of at most 3. */
function committingPast(node: RunningNode, num: number, what: string): Promise<HeadHeader> {
  return waitUntil(what, async () => {
    const header = await headerOf(node);
    return header.commitNum > num && header.blockNum - header.commitNum <= 3 ? header : undefined;
  }, 60_000);
}

bft.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-bft-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ctx.nodes = [await producer(join(ctx.dir, 'a'), ['-p', 'prod', '--boot', bundle])];
  for (const [i, name] of NAMES.slice(1).entries()) {
    const peers = ctx.nodes.flatMap((n) => ['--peer', urlOf(n)]);
    ctx.nodes.push(await producer(join(ctx.dir, 'bcd'[i]!), ['-p', name, ...peers]));
  }
  ctx.follower = await producer(join(ctx.dir, 'e'), ctx.nodes.flatMap((n) => ['--peer', urlOf(n)]));
  await waitUntil('four links each', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 4));
  // Each producer signs its blocks and BFT messages with a key of its own node's key store.
  const claims: Claim[] = [];
  for (const node of ctx.nodes) claims.push(await generatedClaim(node));
  await setConsensus(ctx.nodes[0]!, 'BftConsensus', NAMES, claims);
  await waitForProducerSet(ctx.nodes, NAMES);
});

bft.after(async (ctx) => {
  await Promise.all([...ctx.nodes, ctx.follower].map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

bft('the set in force is BFT, and in steady state each header commits the block two below it', async ({ nodes, follower }) => {
  for (const node of nodes) {
    const answer = await clientOf(node).graphql('producers', '{ consensus { BftConsensus { producers { name } } } }') as { consensus: { BftConsensus: { producers: { name: string }[] } | null } };
    assert.equal(answer.consensus.BftConsensus?.producers.map((p) => p.name), NAMES, node.api);
  }
  const first = await waitUntil('commitNum + 2 == blockNum on the head', async () => {
    const header = await headerOf(nodes[0]!);
    return header.blockNum - header.commitNum === 2 ? header : undefined;
  }, 60_000);
  // The next six heads: at most one may lag otherwise.
  const lags: number[] = [];
  let last = first.blockNum;
  while (lags.length < 6) {
    const header = await waitUntil(`a head after ${last}`, async () => {
      const h = await headerOf(nodes[0]!);
      return h.blockNum > last ? h : undefined;
    });
    last = header.blockNum;
    lags.push(header.blockNum - header.commitNum);
  }
  assert.ok(lags.filter((lag) => lag !== 2).length <= 1, `lags ${lags.join(', ')}`);
  const head = await headerOf(nodes[0]!);
  assert.is(head.producer, bftLeaderOf(head.term), `the leader of term ${head.term}`);
  for (const node of nodes) assert.ok(keptTerm(node) >= head.term, `${node.dir} keeps its BFT term`);
  // The follower has the head too. The switch left no block that a node refused (a wrong leader,
  // a commit proof in auxConsensusData that does not check out).
  await waitUntil(`the follower has block ${head.blockNum}`, async () => (await headerOf(follower)).blockNum >= head.blockNum);
  for (const node of [...nodes, follower]) assert.not.match(node.output(), 'was refused', node.dir);
});

bft('a transaction pushed with wait_for=final returns on every node', async ({ nodes, follower }) => {
  for (const [i, node] of [...nodes, follower].entries()) {
    const pushed = await clientOf(node).push([systemAction('root', 'accounts.newAccount', { name: `final${'abcde'[i]}`, authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
    assert.is(pushed.trace.error, null, `pushed to node ${i}`);
  }
});

bft('the leader stopped: the other three change view and go on making blocks irreversible', async (ctx) => {
  const before = await headerOf(ctx.nodes[1]!);
  const index = NAMES.indexOf(before.producer);
  assert.ok(index >= 0, `the leader ${before.producer} is a producer`);
  await ctx.nodes[index]!.stop();
  const survivor = ctx.nodes[(index + 1) % NAMES.length]!;
  const after = await committingPast(survivor, before.blockNum, 'commits again under a new leader');
  assert.ok(after.term > before.term, `term ${after.term} after ${before.term}`);
  assert.not.equal(after.producer, before.producer);
  assert.is(after.producer, bftLeaderOf(after.term), `the leader of term ${after.term}`);
  const pushed = await clientOf(survivor).push([systemAction('root', 'accounts.newAccount', { name: 'afterstop', authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);
  ctx.nodes[index] = await restartProducer(ctx.nodes[index]!);
});

bft('all four stopped and started again: blocks and irreversibility resume', async (ctx) => {
  const before = await headerOf(ctx.nodes[1]!);
  const stopped = ctx.nodes;
  await Promise.all(stopped.map((n) => n.stop()));
  const committed = stopped.map(keptCommitted);
  ctx.nodes = [];
  for (const node of stopped) ctx.nodes.push(await restartProducer(node));
  for (const [i, node] of ctx.nodes.entries()) {
    assert.ok(committed[i]! > 2, `${node.dir} kept block ${committed[i]} as committed`);
    assert.ok(await irreversibleOf(node) >= committed[i]!, `${node.dir} is irreversible up to block ${committed[i]} again after its restart`);
  }
  const after = await committingPast(ctx.nodes[0]!, before.blockNum, 'commits again after the restart');
  for (const node of ctx.nodes.slice(1)) await committingPast(node, after.commitNum - 1, `${node.api} follows`);
});

bft.run();
