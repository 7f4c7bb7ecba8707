// docs/p2p.md §6.1 with real node processes: the producer set changes 1 → 3 → 2 while
// transactions keep coming to every node. Each change starts joint consensus and ends it once
// irreversible, and every transaction acknowledged final is afterwards in the chain of every node.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import type { RunningNode } from '../../lib/node-process.js';
import { peersOf, waitUntil } from '../../lib/node-network.js';
import { clientOf, setProducers, startProducer, urlOf, waitForProducerSet } from '../../lib/producer-network.js';
import { testBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';

interface Sets { producers: string[]; next: string[]; jointStart: number | null }

async function setsOf(node: RunningNode): Promise<Sets> {
  const answer = await clientOf(node).graphql('producers', '{ producers { name } nextProducers { name } jointStart }') as {
    producers: { name: string }[]; nextProducers: { name: string }[]; jointStart: number | null;
  };
  return { producers: answer.producers.map((p) => p.name), next: answer.nextProducers.map((p) => p.name), jointStart: answer.jointStart };
}

/** Changes the producers and waits until every node serves the new set as the current one, joint consensus over. */
async function changeProducers(nodes: RunningNode[], names: string[]): Promise<void> {
  await setProducers(nodes[0]!, names);
  const during = await setsOf(nodes[0]!);
  assert.ok(during.jointStart !== null || during.producers.join() === names.join(), 'the change is pending (joint consensus) or already over');
  await waitForProducerSet(nodes, names);
}

test('the producers change 1 → 3 → 2 under a stream of transactions; none acknowledged final is lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-cft-changes-'));
  const nodes: RunningNode[] = [];
  try {
    const bundle = join(dir, 'test.bundle');
    writeFileSync(bundle, await testBundle());
    nodes.push(await startProducer(join(dir, 'a'), ['-p', 'prod', '--boot', bundle], BLOCK_MS));
    nodes.push(await startProducer(join(dir, 'b'), ['-p', 'bprod', '--peer', urlOf(nodes[0]!)], BLOCK_MS));
    nodes.push(await startProducer(join(dir, 'c'), ['-p', 'cprod', '--peer', urlOf(nodes[0]!), '--peer', urlOf(nodes[1]!)], BLOCK_MS));
    await waitUntil('two links each', async () => (await Promise.all(nodes.map(peersOf))).every((p) => p.length === 2));

    // The stream: one account after another, pushed round the nodes with wait_for=final.
    const final: string[] = [];
    const refused: string[] = [];
    let streaming = true;
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        const name = `flow${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26) % 26)}`;
        try {
          const pushed = await clientOf(nodes[i % nodes.length]!).push([systemAction('root', 'accounts.newAccount', { name, authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
          (pushed.trace.error === null ? final : refused).push(name);
        } catch {
          refused.push(name);
        }
      }
    })();

    await changeProducers(nodes, ['prod', 'bprod', 'cprod']);
    const afterFirst = final.length;
    await changeProducers(nodes, ['prod', 'bprod']);
    await waitUntil('more transactions final after the second change', async () => final.length > afterFirst + 2, 30_000);
    streaming = false;
    await stream;

    assert.ok(final.length >= 5, `${final.length} final, ${refused.length} refused`);
    for (const node of nodes) {
      for (const name of final) {
        const found = await waitUntil(`${name} on ${node.api}`, async () => ((await clientOf(node).graphql('accounts', `{ getAccount(account: "${name}") { accountNum } }`)).getAccount as unknown) ?? undefined);
        assert.ok(found, `${name}, acknowledged final, is on ${node.api}`);
      }
    }
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
