// docs/p2p.md §4 and §6.1 with real node processes: a booted node adds two producers through
// producers::setProducers; the three, fully linked, run CFT: in steady state a header's commitNum
// is two below its blockNum (psibase's own expectation), a transfer pushed with wait_for=final
// returns on every node, and when the leader is killed with SIGKILL the other two elect a new
// leader and irreversibility moves on again. producers.<root>/graphql serves the sets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { nodeProcessId, startNode, type RunningNode } from '../../lib/node-process.js';
import { peersOf, waitUntil } from '../../lib/node-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const claimless = { service: 0n, rawData: new Uint8Array(0) };

interface Context { dir: string; nodes: RunningNode[] }
const cft = suite<Context>('CFT with three producers');

const clientOf = (node: RunningNode) => new ChainClient(node.api);
const urlOf = (node: RunningNode) => `http://127.0.0.1:${node.port}`;

interface Header { blockNum: number; commitNum: number; term: number; producer: string }

async function headerOf(node: RunningNode): Promise<Header> {
  const { headBlock } = await clientOf(node).graphql('explorer', '{ headBlock { header { blockNum commitNum term producer } } }') as { headBlock: { header: Header } };
  return headBlock.header;
}

cft.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-cft-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  const a = await startNode(join(ctx.dir, 'a'), ['-p', 'prod', '--boot', bundle, '--p2p', '--block-interval', BLOCK_MS]);
  const b = await startNode(join(ctx.dir, 'b'), ['-p', 'bprod', '--p2p', '--peer', urlOf(a), '--block-interval', BLOCK_MS]);
  const c = await startNode(join(ctx.dir, 'c'), ['-p', 'cprod', '--p2p', '--peer', urlOf(a), '--peer', urlOf(b), '--block-interval', BLOCK_MS]);
  ctx.nodes = [a, b, c];
  await waitUntil('three links each', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 2));
  await clientOf(a).push([systemAction('producers', 'producers.setProducers', {
    prods: ['prod', 'bprod', 'cprod'].map((name) => ({ name, auth: claimless })),
  })], { waitFor: 'applied' });
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
  // Joint consensus ends once the change is irreversible: then every node serves the new set as the current one.
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
  for (const node of nodes.slice(1)) {
    await waitUntil(`${node.api} has block ${steady.blockNum}`, async () => (await headerOf(node)).blockNum >= steady.blockNum);
  }
});

cft('a transaction pushed with wait_for=final returns on every node', async ({ nodes }) => {
  for (const [i, node] of nodes.entries()) {
    const pushed = await clientOf(node).push([systemAction('root', 'accounts.newAccount', { name: `final${'abc'[i]}`, authService: 'auth-any', requireNew: true })], { waitFor: 'final' });
    assert.is(pushed.trace.error, null, `pushed to node ${i}`);
  }
});

cft('the leader killed with SIGKILL: the other two elect a new leader and irreversibility moves on', async (ctx) => {
  const leader = ctx.nodes[0]!;
  const before = await headerOf(ctx.nodes[1]!);
  process.kill(nodeProcessId(leader), 'SIGKILL');
  await new Promise((resolve) => leader.process.once('exit', resolve));
  const survivor = ctx.nodes[1]!;
  const after = await waitUntil('a new term with commits again', async () => {
    const header = await headerOf(survivor);
    return header.term > before.term && header.commitNum > before.blockNum && header.blockNum - header.commitNum <= 3 ? header : undefined;
  }, 40_000);
  assert.ok(after.producer === 'bprod' || after.producer === 'cprod', `the new leader is ${after.producer}`);
  const pushed = await clientOf(ctx.nodes[2]!).push([systemAction('root', 'accounts.newAccount', { name: 'afterkill', authService: 'auth-any', requireNew: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);
  ctx.nodes = ctx.nodes.slice(1);
});

cft.run();
