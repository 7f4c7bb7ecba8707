// The dev modes of `tsibase dev` (docs/administration.md §4.3a) as a service author runs them:
// --instant makes a block for each transaction and none while idle, --block-interval a block per
// interval, --state writes the chain to a file when it stops and starts from that file, and
// --watch builds a project `tsibase new-service` made on each save and deploys it, printing the
// new code hash or the build's errors.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction } from '../../../host-api/boot/system-actions.js';
import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { sha256 } from '../../../runtime/crypto/sha256.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { runCli } from '../../lib/cli-process.js';
import { startDev, type Dev } from '../../lib/dev-process.js';
import { waitUntil } from '../../lib/node-network.js';

interface Block { header: { blockNum: number; time: string }; transactionCount: number }
interface Ctx { dir: string }
const test = suite<Ctx>('tsibase dev modes');

async function headBlock(client: ChainClient): Promise<Block> {
  const { headBlock } = await client.graphql('explorer', '{ headBlock { header { blockNum time } transactionCount } }') as { headBlock: Block };
  return headBlock;
}

async function authServiceOf(client: ChainClient, account: string): Promise<string | undefined> {
  const data = await client.graphql('accounts', `{ getAccount(account: "${account}") { authService } }`) as { getAccount: { authService: string } | null };
  return data.getAccount?.authService;
}

const newAccount = (name: string) => systemAction('root', 'accounts.newAccount', { name, authService: 'auth-any', requireMatch: false });

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-dev-modes-'));
});

test.after((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('--instant: a push makes one block, answered final; no blocks while idle; --state writes the chain when it stops', async (ctx) => {
  const state = join(ctx.dir, 'chain.state');
  const dev = await startDev(['--instant', '--data', join(ctx.dir, 'instant'), '--state', state]);
  let stopped: string;
  try {
    const client = new ChainClient(dev.api);
    const idle = await headBlock(client);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.is((await headBlock(client)).header.blockNum, idle.header.blockNum, 'no block while no transaction comes');
    // waitFor final: the block is final as it closes.
    await client.push([newAccount('carol')], { waitFor: 'final' });
    const after = await headBlock(client);
    assert.is(after.header.blockNum, idle.header.blockNum + 1, 'one block for the transaction');
    assert.is(after.transactionCount, 1);
    // A failed transaction makes no block.
    await rejectionMessage(client.push([{ sender: 'root', service: 'no-such-service', method: 'go', rawData: '' }], { waitFor: 'applied' }), 'a transaction that fails');
    assert.is((await headBlock(client)).header.blockNum, after.header.blockNum);
    assert.not.ok(existsSync(state), 'written when the chain stops');
  } finally {
    stopped = await dev.stop();
  }
  assert.match(stopped, /the state of block \d+ written to /);
  assert.ok(existsSync(state));
});

test('--state: a new data directory starts from the file, with the chain as it stopped', async (ctx) => {
  const state = join(ctx.dir, 'chain.state');
  const dev = await startDev(['--instant', '--data', join(ctx.dir, 'from-state'), '--state', state]);
  try {
    assert.match(dev.output(), `the chain of ${state} loaded`);
    assert.not.match(dev.output(), 'boot: ');
    const client = new ChainClient(dev.api);
    assert.is(await authServiceOf(client, 'carol'), 'auth-any', 'the account made before the stop');
    const head = await headBlock(client);
    await client.push([newAccount('dave')]);
    assert.is((await headBlock(client)).header.blockNum, head.header.blockNum + 1, 'the chain goes on from the file');
  } finally {
    await dev.stop();
  }
});

test('--block-interval: a block every interval, empty ones too', async (ctx) => {
  const dev = await startDev(['--block-interval', '200', '--data', join(ctx.dir, 'interval')]);
  try {
    const client = new ChainClient(dev.api);
    const first = await headBlock(client);
    const later = await waitUntil('3 more blocks', async () => {
      const head = await headBlock(client);
      return head.header.blockNum >= first.header.blockNum + 3 ? head : undefined;
    });
    assert.is(later.transactionCount, 0, 'empty blocks while idle');
    const us = (block: Block) => Date.parse(block.header.time) * 1000;
    assert.is((us(later) - us(first)) % 200_000, 0, 'block times are on the 200 ms slots');
  } finally {
    await dev.stop();
  }
});

test('--watch: a save is built and deployed (the new code hash printed), a build error printed', async (ctx) => {
  const created = await runCli('', ['new-service', 'notes'], undefined, ctx.dir);
  assert.is(created.status, 0, created.stderr);
  const project = join(ctx.dir, 'notes');
  const dev: Dev = await startDev(['--instant', '--data', join(ctx.dir, 'watch-data'), '--watch', project]);
  try {
    // The first build compiles the project from nothing: under load that takes a while.
    const first = await dev.printed(/watch: deployed notes: code hash ([0-9A-F]{64})/, 0, 180_000);
    assert.is(first[1], bytesToHex(sha256(readFileSync(join(project, 'build', 'notes.wasm')))), 'the hash of the module built');
    assert.is((await httpRequest(serviceUrl(dev.api, 'notes', '/'))).status, 200, 'its subdomain serves it');

    const source = join(project, 'service', 'index.ts');
    const text = readFileSync(source, 'utf8');
    let mark = dev.output().length;
    writeFileSync(source, text.replace('a note needs some text', 'a note needs text (edited)'));
    const second = await dev.printed(/watch: deployed notes: code hash ([0-9A-F]{64})/, mark);
    assert.is.not(second[1], first[1], 'the edited service is a new module');

    mark = dev.output().length;
    writeFileSync(source, text.replace('return <u32>text.length;', 'return <u32>undefinedName.length;'));
    const failed = await dev.printed(/watch: build failed[^\n]*\n([\s\S]*?undefinedName[\s\S]*?)\n/, mark);
    assert.match(failed[1]!, 'ERROR');
  } finally {
    await dev.stop();
  }
});

test.run();
