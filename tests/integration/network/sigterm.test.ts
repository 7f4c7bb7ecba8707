// SIGTERM stops a linked node cleanly: its links close with 1001 (docs/p2p.md §1.2), its HTTP
// listener and database close, and the process exits with 0; the node starts again on its
// directory and port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hostRequest } from '../../lib/admin-requests.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { linkInLine, restartNode, startNetwork, stopNetwork, waitForOutput, waitForPeers, waitUntil, type NetworkNode } from '../../lib/node-network.js';

interface Ctx { dir: string; nodes: NetworkNode[] }
const test = suite<Ctx>('SIGTERM');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-sigterm-'));
  ctx.nodes = await startNetwork(ctx.dir, 2);
});

test.after(async (ctx) => {
  await stopNetwork(ctx.nodes ?? []);
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a linked node stops on SIGTERM: links closed (1001), listener closed, exit code 0; it starts again', async (ctx) => {
  const [a, b] = ctx.nodes;
  await linkInLine([a!, b!]);
  let exit: { code: number | null } | undefined;
  a!.process.once('exit', (code) => (exit = { code }));
  a!.process.kill('SIGTERM');
  // A few seconds at most: the links' close handshake is bounded, and nothing else waits long.
  assert.equal(await waitUntil('the node process to exit', async () => exit, 10_000), { code: 0 });
  await waitForOutput(b!, 'is down: closed by the peer (1001 the node is shutting down)');
  await waitForPeers(b!, (p) => p.length === 0, 'the link closed');
  assert.match(await rejectionMessage(hostRequest(a!, 'tsibase.localhost', '/native/admin/status'), 'a request to the stopped node'), /ECONNREFUSED|fetch failed|connect/i);
  const again = await restartNode(a!);
  ctx.nodes[0] = again;
  assert.is((await hostRequest(again, 'x-admin.tsibase.localhost', '/native/admin/status')).status, 200, 'the directory and its database open again');
});

test.run();
