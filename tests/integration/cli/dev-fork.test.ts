// `tsibase dev --fork` (docs/chain.md §9) against a secure chain: a node booted with keys keeps
// signed snapshots (transact::setSnapTime) and serves the newest at GET /native/admin/snapshot;
// a dev chain forked from it takes the chain's state, says loudly that it is a fork (at start, in
// its status and in `tsibase info`), produces alone, and lets anyone act as any account without
// its key, while the original chain still refuses that. A node directory holding a fork is
// refused by `tsibase node`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, privateKeyToPkcs8, toPem, type KeyPair } from '../../../host-api/index.js';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest } from '../../../runtime/cli/client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { runCli } from '../../lib/cli-process.js';
import { startDev } from '../../lib/dev-process.js';
import { waitUntil } from '../../lib/node-network.js';
import { startNode } from '../../lib/node-process.js';
import { runsNode, type NodeContext } from '../../lib/node-suite.js';
import { testBundle } from '../../lib/test-bundle.js';

interface Ctx extends NodeContext { client: ChainClient; root: KeyPair; alice: KeyPair }
const test = suite<Ctx>('tsibase dev --fork');

function writeKey(dir: string, name: string, pair: KeyPair): string {
  const file = join(dir, `${name}.pem`);
  writeFileSync(file, toPem('PRIVATE KEY', privateKeyToPkcs8(pair)), { mode: 0o600 });
  return file;
}

async function authServiceOf(client: ChainClient, account: string): Promise<string | undefined> {
  const data = await client.graphql('accounts', `{ getAccount(account: "${account}") { authService } }`) as { getAccount: { authService: string } | null };
  return data.getAccount?.authService;
}

/** alice gives up her key: only alice (or whoever may act as her) can. */
const aliceTakesAuthAny = () => [systemAction('alice', 'accounts.setAuthServ', { authService: 'auth-any' })];

runsNode(test, 'dev-fork', async (dir, ctx) => {
  ctx.root = generateKeyPair();
  ctx.alice = generateKeyPair();
  const bundle = join(dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  const node = await startNode(join(dir, 'secure'), [
    '-p', 'prod', '--boot', bundle, '--block-interval', '200', '-k', writeKey(dir, 'root', ctx.root), '--block-key', writeKey(dir, 'block', generateKeyPair()),
  ]);
  ctx.client = new ChainClient(node.api);
  await ctx.client.push([systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey })], { keys: [ctx.root] });
  await ctx.client.push([systemAction('transact', 'transact.setSnapTime', { seconds: 1 })], { keys: [ctx.root] });
  return node;
});

test('the secure chain refuses alice\'s action without her key, and serves its newest signed snapshot', async (ctx) => {
  assert.match(await rejectionMessage(ctx.client.push(aliceTakesAuthAny(), { waitFor: 'applied' }), 'alice without her key'), 'authenticate sender alice');
  const snapshot = await waitUntil('a signed snapshot', async () => {
    const r = await httpRequest(`${ctx.node.api}/native/admin/snapshot`);
    return r.status === 200 ? r.body : undefined;
  });
  assert.is(Buffer.from(snapshot).readUInt32LE(0), 0x7388cf00, 'a snapshot file');
  writeFileSync(join(ctx.dir, 'secure.snapshot'), snapshot);
});

test('a fork of it lets anyone act as alice, says it is a fork, and leaves the original as it was', async (ctx) => {
  const data = join(ctx.dir, 'fork');
  const dev = await startDev(['--fork', ctx.node.api, '--data', data]);
  try {
    assert.match(dev.output(), `DEVELOPMENT FORK of ${ctx.node.api}`);
    assert.match(dev.output(), 'not valid on the original network');
    assert.not.match(dev.output(), 'boot: ');
    const fork = new ChainClient(dev.api);
    assert.is(await authServiceOf(fork, 'alice'), 'auth-sig', 'the original chain\'s state');
    const { trace } = await fork.push(aliceTakesAuthAny());
    assert.is(trace.error, null);
    assert.is(await authServiceOf(fork, 'alice'), 'auth-any', 'alice acted on the fork without her key');
    // root too, whose key is on the original chain alone; blocks come on, as the fork's own producer.
    await fork.push([systemAction('root', 'accounts.newAccount', { name: 'eve', authService: 'auth-any', requireMatch: false })]);
    assert.is(await authServiceOf(fork, 'eve'), 'auth-any');

    const status = await httpRequest(`${dev.api}/native/admin/status`);
    assert.ok((status.json() as string[]).includes('devfork'), status.text());
    const info = await runCli(dev.api, ['info']);
    assert.is(info.status, 0, info.stderr);
    assert.match(info.stdout, 'DEVELOPMENT FORK');
  } finally {
    await dev.stop();
  }
  assert.is(await authServiceOf(ctx.client, 'alice'), 'auth-sig', 'the original chain is untouched');
  assert.is(await authServiceOf(ctx.client, 'eve'), undefined);

  const refused = await startNode(data).then(async (node) => {
    await node.stop();
    return 'started';
  }, (err: Error) => err.message);
  assert.match(refused, 'holds a development fork');
});

test('a fork of a snapshot file, kept with --state: the next start from the state file is a fork again', async (ctx) => {
  const file = join(ctx.dir, 'secure.snapshot');
  const state = join(ctx.dir, 'fork.state');
  const first = await startDev(['--fork', file, '--data', join(ctx.dir, 'file-fork'), '--state', state]);
  try {
    assert.match(first.output(), `DEVELOPMENT FORK of ${file}`);
    await new ChainClient(first.api).push(aliceTakesAuthAny());
  } finally {
    assert.match(await first.stop(), `written to ${state}`);
  }
  const again = await startDev(['--fork', file, '--data', join(ctx.dir, 'file-fork-again'), '--state', state]);
  try {
    assert.match(again.output(), `the chain of ${state} loaded`);
    assert.match(again.output(), 'DEVELOPMENT FORK');
    const fork = new ChainClient(again.api);
    assert.is(await authServiceOf(fork, 'alice'), 'auth-any', 'the fork as it stopped');
    // Still bypassed: root acts without its key.
    await fork.push([systemAction('root', 'accounts.newAccount', { name: 'frank', authService: 'auth-any', requireMatch: false })]);
    assert.is(await authServiceOf(fork, 'frank'), 'auth-any');
  } finally {
    await again.stop();
  }
});

test.run();
