// docs/p2p.md §4 and §6.1 with real node processes: a booted node adds two producers through
// producers::setProducers; the three, fully linked, run CFT: in steady state a header's commitNum
// is two below its blockNum (psibase's own expectation), a transaction pushed with wait_for=final
// returns on every node, and when the leader is killed with SIGKILL the other two elect a new
// leader and irreversibility moves on again; the killed node restarts and follows again; all
// three stopped and started again resume blocks and irreversibility. producers.<root>/graphql
// serves the sets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { nodeProcessId, type RunningNode } from '../../lib/node-process.js';
import { peersOf, waitUntil } from '../../lib/node-network.js';
import {
  clientOf, headerOf, restartProducer, setProducers, startProducer, urlOf, type HeadHeader, type ProducerNode,
} from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';

interface Context { dir: string; nodes: ProducerNode[] }
const cft = suite<Context>('CFT with three producers');

const producer = (dir: string, args: string[]) => startProducer(dir, args, BLOCK_MS);

/** Waits until the node's head commits a block past `num` with a lag of at most 3. */
function committingPast(node: RunningNode, num: number, what: string): Promise<HeadHeader> {
  return waitUntil(what, async () => {
    const header = await headerOf(node);
    return header.commitNum > num && header.blockNum - header.commitNum <= 3 ? header : undefined;
  }, 40_000);
}

cft.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-cft-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  const a = await producer(join(ctx.dir, 'a'), ['-p', 'prod', '--boot', bundle]);
  const b = await producer(join(ctx.dir, 'b'), ['-p', 'bprod', '--peer', urlOf(a)]);
  const c = await producer(join(ctx.dir, 'c'), ['-p', 'cprod', '--peer', urlOf(a), '--peer', urlOf(b)]);
  ctx.nodes = [a, b, c];
  await waitUntil('three links each', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 2));
  await setProducers(a, ['prod', 'bprod', 'cprod']);
});

cft.after(async (ctx) => {
  await Promise.all(ctx.nodes.map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

cft('in steady state each header commits the block two below it', async ({ nodes }) => {
  // Joint consensus ends once the change is irreversible; then the lag settles at two.
  const steady = await waitUntil('commitNum + 2 == blockNum on the leader\'s blocks', async () => {
    const header = await headerOf(nodes[0]!);
    return header.blockNum - header.commitNum === 2 && header.blockNum > 5 ? header : undefined;
  }, 30_000);
  // Joint consensus ends once the change is irreversible: then every node that holds the steady
  // block serves the new set as the current one (one behind may not have the change yet).
  for (const node of nodes.slice(1)) {
    await waitUntil(`${node.api} has block ${steady.blockNum}`, async () => (await headerOf(node)).blockNum >= steady.blockNum);
  }
  const query = '{ producers { name } nextProducers { name } jointStart maxProds consensus { CftConsensus { producers { name } } } }';
  for (const node of nodes) {
    const served = await waitUntil(`joint consensus over on ${node.api}`, async () => {
      const answer = await clientOf(node).graphql('producers', query) as { jointStart: number | null };
      return answer.jointStart === null ? answer : undefined;
    });
    assert.equal(served, {
      producers: [{ name: 'prod' }, { name: 'bprod' }, { name: 'cprod' }],
      nextProducers: [],
      jointStart: null,
      maxProds: 13,
      consensus: { CftConsensus: { producers: [{ name: 'prod' }, { name: 'bprod' }, { name: 'cprod' }] } },
    }, node.api);
  }
});

cft('a transaction pushed with wait_for=final returns on every node', async ({ nodes }) => {
  for (const [i, node] of nodes.entries()) {
    const pushed = await clientOf(node).push([systemAction('root', 'accounts.newAccount', { name: `final${'abc'[i]}`, authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
    assert.is(pushed.trace.error, null, `pushed to node ${i}`);
  }
});

cft('the leader killed with SIGKILL: the other two elect a new leader and irreversibility moves on', async (ctx) => {
  const leader = ctx.nodes[0]!;
  const before = await headerOf(ctx.nodes[1]!);
  process.kill(nodeProcessId(leader), 'SIGKILL');
  await new Promise((resolve) => leader.process.once('exit', resolve));
  const survivor = ctx.nodes[1]!;
  const after = await committingPast(survivor, before.blockNum, 'commits again under a new leader');
  assert.ok(after.term > before.term, `term ${after.term} after ${before.term}`);
  assert.ok(after.producer === 'bprod' || after.producer === 'cprod', `the new leader is ${after.producer}`);
  const pushed = await clientOf(ctx.nodes[2]!).push([systemAction('root', 'accounts.newAccount', { name: 'afterkill', authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);
});

cft('the killed node restarts from its database and follows the new leader', async (ctx) => {
  const { term } = await headerOf(ctx.nodes[1]!);
  ctx.nodes[0] = await restartProducer(ctx.nodes[0]!);
  const target = await headerOf(ctx.nodes[1]!);
  await waitUntil('the restarted node past the others\' head', async () => (await headerOf(ctx.nodes[0]!)).blockNum > target.blockNum, 30_000);
  const header = await headerOf(ctx.nodes[0]!);
  assert.ok(header.term >= target.term, `it follows term ${header.term}`);
  // It joined the leader there was: its restart started no election (docs/p2p.md "What we build" 5).
  assert.is((await headerOf(ctx.nodes[1]!)).term, term, 'the term the others were in goes on');
  const pushed = await clientOf(ctx.nodes[0]!).push([systemAction('root', 'accounts.newAccount', { name: 'rejoined', authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);
});

cft('all three stopped and started again: blocks and irreversibility resume', async (ctx) => {
  const before = await headerOf(ctx.nodes[1]!);
  const stopped = ctx.nodes;
  await Promise.all(stopped.map((n) => n.stop()));
  ctx.nodes = [];
  for (const node of stopped) ctx.nodes.push(await restartProducer(node));
  await committingPast(ctx.nodes[0]!, before.blockNum, 'commits again after the restart');
});

cft.run();
