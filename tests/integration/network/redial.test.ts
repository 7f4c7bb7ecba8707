// Autoconnect (docs/p2p.md §1.5): a node started with `--peer` keeps that peer linked; when the
// peer's process is killed and comes back on its port, the node dials it again. The redial base
// is made small with TSIBASE_P2P_REDIAL_MS (psibase's is 30 s).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REDIAL_ENV } from '../../../runtime/cli/node-start-options.js';
import { restartNode, startNetwork, stopNetwork, waitForOutput, waitForPeers, type NetworkNode } from '../../lib/node-network.js';
import { nodeProcessId } from '../../lib/node-process.js';

interface Ctx { dir: string; nodes: NetworkNode[] }
const test = suite<Ctx>('autoconnect');

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-redial-'));
  ctx.nodes = [];
});

test.after(async (ctx) => {
  await stopNetwork(ctx.nodes);
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a killed peer is dialled again when it comes back', async (ctx) => {
  const [b] = await startNetwork(join(ctx.dir, 'b'), 1);
  ctx.nodes.push(b!);
  const [a] = await startNetwork(join(ctx.dir, 'a'), 1, { args: () => ['--peer', b!.url], env: { [REDIAL_ENV]: '100' } });
  ctx.nodes.push(a!);
  const [first] = await waitForPeers(a!, (p) => p.length === 1, 'the configured peer');
  assert.equal(first, { id: first!.id, endpoint: `127.0.0.1:${b!.port}`, url: b!.url });

  const exited = new Promise((resolve) => b!.process.once('exit', resolve));
  process.kill(nodeProcessId(b!), 'SIGKILL');
  await exited;
  await waitForPeers(a!, (p) => p.length === 0, 'the link lost');
  await waitForOutput(a!, `peer ${b!.url}: dial failed`);

  const back = await restartNode(b!);
  ctx.nodes.splice(0, 1, back);
  const [again] = await waitForPeers(a!, (p) => p.length === 1, 'the peer dialled again');
  assert.ok(again!.id > first!.id, 'a new link');
  assert.is(again!.url, b!.url);
  await waitForPeers(back, (p) => p.length === 1 && p[0]!.url === undefined, 'the incoming link');
});

test.run();
