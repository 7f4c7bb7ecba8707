// docs/p2p.md §4 and §A: five CFT producers linked in a ring, each only to its two neighbours.
// Votes and confirms reach producers that are not neighbours through routing, so the five agree
// on one chain whose irreversible block follows the head closely, and a transaction pushed at the
// node farthest from the leader is final everywhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { connectPeer, peersOf, waitUntil } from '../../lib/node-network.js';
import { PRODUCER_ENV, clientOf, headerOf, setProducers, urlOf } from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const NAMES = ['prod', 'bprod', 'cprod', 'dprod', 'eprod'];

interface Context { dir: string; nodes: RunningNode[] }
const ring = suite<Context>('CFT over a ring of five producers');

ring.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-cft-ring-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  ctx.nodes = [];
  for (const [i, name] of NAMES.entries()) {
    const args = ['-p', name, '--p2p', '--block-interval', BLOCK_MS, ...(i === 0 ? ['--boot', bundle] : ['--peer', urlOf(ctx.nodes[i - 1]!)])];
    ctx.nodes.push(await startNode(join(ctx.dir, name), args, PRODUCER_ENV));
  }
  // Close the ring: the last node to the first.
  assert.is((await connectPeer(ctx.nodes[4]!, urlOf(ctx.nodes[0]!))).status, 200);
  await waitUntil('two links on every node', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 2));
  await setProducers(ctx.nodes[0]!, NAMES);
});

ring.after(async (ctx) => {
  await Promise.all(ctx.nodes.map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

ring('the five agree and irreversibility follows the head by two or three blocks', async ({ nodes }) => {
  const joined = await waitUntil('joint consensus over', async () => {
    const { jointStart, producers } = await clientOf(nodes[0]!).graphql('producers', '{ jointStart producers { name } }') as { jointStart: number | null; producers: { name: string }[] };
    return jointStart === null && producers.length === 5 ? producers : undefined;
  }, 40_000);
  assert.equal(joined.map((p) => p.name), NAMES);
  const steady = await waitUntil('a head that commits within three blocks', async () => {
    const header = await headerOf(nodes[2]!);
    return header.blockNum - header.commitNum <= 3 && header.commitNum > 5 ? header : undefined;
  }, 40_000);
  for (const node of nodes) {
    await waitUntil(`${node.api} at block ${steady.blockNum}`, async () => (await headerOf(node)).commitNum >= steady.commitNum);
  }
  // In steady state every head commits the block two or three below it (psibase's lag of 2, one
  // more when a confirm needs two hops), never less and never more.
  const lags: number[] = [];
  for (let last = steady.blockNum; lags.length < 8;) {
    const header = await waitUntil(`a head after ${last}`, async () => {
      const next = await headerOf(nodes[2]!);
      return next.blockNum > last ? next : undefined;
    });
    lags.push(header.blockNum - header.commitNum);
    last = header.blockNum;
  }
  assert.ok(lags.every((lag) => lag >= 2 && lag <= 3), `lags ${lags.join(', ')}`);
});

ring('a transaction pushed with wait_for=final at the far side of the ring returns', async ({ nodes }) => {
  const pushed = await clientOf(nodes[2]!).push([systemAction('root', 'accounts.newAccount', { name: 'ringfinal', authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
  assert.is(pushed.trace.error, null);
  for (const node of nodes) {
    await waitUntil(`ringfinal on ${node.api}`, async () => ((await clientOf(node).graphql('accounts', '{ getAccount(account: "ringfinal") { accountNum } }')).getAccount as unknown) ?? undefined);
  }
});

ring.run();
