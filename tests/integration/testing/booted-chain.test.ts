// TestChain.boot end to end with real services: the default bundle booted in this process, a
// secure chain's signed token transfer in a block, time travel past an expiry, serveSys pages,
// GraphQL, a deferred reply and login over chain.http, deploying a built service, forks and close.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, generateKeyPair, type KeyPair } from '../../../host-api/index.js';
import type { TsibaseError } from '../../../host-api/errors.js';
import type { BootedChain } from '../../../runtime/testing/booted-chain.js';
import { ServiceCodec } from '../../../host-api/client/service-codec.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { field, probeWasm, Probe } from '../../lib/probe.js';
import { compiledEntry, ROOT } from '../../unit/services-wasm/program.js';

const TOKENS_WASM = join(ROOT, 'build', 'services', 'tokens.wasm');
const schemaOf = (name: string) => new ServiceCodec(JSON.parse(readFileSync(join(ROOT, 'build', 'services', `${name}.schema.json`), 'utf8')));
const tokens = schemaOf('tokens');
const example = schemaOf('example');

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return (err as TsibaseError).code;
  }
  return undefined;
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as TsibaseError).code;
  }
  return undefined;
}

/** example::increment of `name` by `by` from alice; the counter's new value. */
async function increment(chain: BootedChain, name: string, by = 1): Promise<unknown> {
  const pushed = await chain.push([{ sender: 'alice', service: 'example', method: 'increment', rawData: example.args('increment', { name, by }) }]);
  assert.is(pushed.error, null);
  return example.result('increment', pushed.actions[0]!.rawRetval);
}

// A development chain: the default bundle and the http probe (deferred replies, the user).
interface DevCtx { chain: BootedChain }
const dev = suite<DevCtx>('TestChain.boot: a development chain');

dev.before(async (ctx) => {
  const probe = await compiledEntry('tests/integration/services/http-probe.as.ts');
  ctx.chain = await TestChain.boot({ services: [{ account: 'probe', code: probe.binary, flags: 1n, registerServer: true }] });
  await ctx.chain.newAccount('alice');
});
dev.after(async (ctx) => {
  await ctx.chain?.close();
});

dev('boots the bundle into blocks in a temporary store', ({ chain }) => {
  assert.ok(existsSync(chain.directory));
  assert.ok(chain.head.header.blockNum >= 4, `head is block ${chain.head.header.blockNum}`);
});

dev('a push is a transaction in a block of its own, with its events', async ({ chain }) => {
  const before = chain.head.header.blockNum;
  const pushed = await chain.push([{ sender: 'alice', service: 'example', method: 'increment', rawData: example.args('increment', { name: 'events', by: 2 }) }]);
  assert.is(pushed.error, null);
  assert.match(pushed.id, /^[0-9A-F]{64}$/);
  assert.is(chain.head.header.blockNum, before + 1);
  assert.ok(pushed.events.length > 0);
});

dev('each action of a trace has its console output', async ({ chain }) => {
  await chain.deploy('console', await probeWasm());
  const pushed = await chain.push([
    { sender: 'alice', service: 'console', method: Probe.writeConsole, rawData: field('first') },
    { sender: 'alice', service: 'console', method: Probe.writeConsole, rawData: field('second') },
  ]);
  assert.is(pushed.error, null);
  assert.equal(pushed.console, ['first', 'second']);
});

dev('a serveSys page and /common over chain.http', async ({ chain }) => {
  const templates = await chain.http({ host: 'example.tsibase.localhost', path: '/action_templates' });
  assert.is(templates.status, 200);
  assert.ok('increment' in (templates.json() as object));
  assert.is(templates.headers['access-control-allow-origin'], '*');
  const root = await chain.http({ path: '/common/rootdomain' });
  assert.is(root.status, 200);
  assert.is(root.json(), 'tsibase.localhost');
  const head = await chain.http({ method: 'HEAD', host: 'example.tsibase.localhost', path: '/action_templates' });
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
  assert.is(head.headers['content-length'], String(templates.body.length));
});

dev('a deferred reply comes when the service answers it later', async ({ chain }) => {
  let settled = false;
  const deferred = chain.http({ host: 'probe.tsibase.localhost', path: '/defer' }).then((r) => ((settled = true), r));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(settled, false);
  const answer = await chain.http({ host: 'probe.tsibase.localhost', path: '/answer' });
  assert.is(answer.text(), 'answered');
  const reply = await deferred;
  assert.is(reply.status, 200);
  assert.is(reply.text(), 'deferred answer');
});

dev('login gives a token that chain.http takes: serveSys gets the user', async ({ chain }) => {
  const token = await chain.login('alice');
  const user = await chain.http({ host: 'probe.tsibase.localhost', path: '/user', headers: { Authorization: `Bearer ${token}` } });
  assert.is(user.json(), 'alice');
  const anonymous = await chain.http({ host: 'probe.tsibase.localhost', path: '/user' });
  assert.is(anonymous.json(), null);
  const forged = await chain.http({ host: 'probe.tsibase.localhost', path: '/user', headers: { Authorization: `Bearer ${token.slice(0, -2)}xx` } });
  assert.is(forged.json(), null);
});

dev('deploy installs a built service with a real transaction; GraphQL reads it', async ({ chain }) => {
  await chain.deploy('tokens', TOKENS_WASM, { registerServer: true, init: true });
  const minted = await chain.push([{ sender: 'tokens', service: 'tokens', method: 'mint', rawData: tokens.args('mint', { to: 'alice', amount: 7 }) }]);
  assert.is(minted.error, null);
  const { data, errors } = await chain.graphql('tokens', '{ balance(owner: "alice") { owner amount } supply { total } }');
  assert.is(errors, undefined);
  assert.equal(data, { balance: { owner: 'alice', amount: '7' }, supply: { total: '7' } });
  // Without create, an account that does not exist cannot set its code.
  assert.is(await code(chain.deploy('nobody', TOKENS_WASM, { create: false })), 'TESTCHAIN_DEPLOY_FAILED');
});

dev('a transaction whose expiration passed is refused, as on a node', async ({ chain }) => {
  const late = chain.transaction([{ sender: 'alice', service: 'example', method: 'increment', rawData: example.args('increment', { name: 'late', by: 1 }) }], { expiresIn: 5 });
  chain.advance(6_000);
  const pushed = await chain.pushTransaction(late);
  assert.match(pushed.error ?? '', 'transaction has expired');
  assert.equal(pushed.events, []);
});

dev('block times follow the clock; it does not go back', ({ chain }) => {
  chain.setTime('2040-01-01T00:00:00Z');
  chain.produceBlock();
  assert.is(chain.head.header.time, BigInt(Date.parse('2040-01-01T00:00:00Z')) * 1000n);
  assert.is(chain.time, '2040-01-01T00:00:00.000Z');
  assert.is(codeOf(() => chain.setTime('2039-01-01T00:00:00Z')), 'TESTCHAIN_TIME_BACKWARDS');
  assert.is(codeOf(() => chain.setTime('next tuesday')), 'TESTCHAIN_BAD_TIME');
});

dev('with autoBlock off, pushes wait in the open block until produceBlock', async ({ chain }) => {
  chain.autoBlock(false);
  try {
    const before = chain.head.header.blockNum;
    assert.is(await increment(chain, 'manual'), 1n);
    // The second sees the first in the open block (the same transaction again would be a duplicate).
    assert.is(await increment(chain, 'manual', 2), 3n);
    assert.is((await chain.push([{ sender: 'alice', service: 'example', method: 'increment', rawData: example.args('increment', { name: 'manual', by: 1 }) }])).error,
      "service 'transact' aborted with message: duplicate transaction");
    assert.is(chain.head.header.blockNum, before);
    assert.is(await code(chain.fork()), 'TESTCHAIN_BLOCK_OPEN');
    chain.produceBlock();
    assert.is(chain.head.header.blockNum, before + 1);
  } finally {
    chain.autoBlock(true);
  }
});

dev('a fork has the whole state; writes in either are not seen in the other', async ({ chain }) => {
  await increment(chain, 'shared');
  const fork = await chain.fork();
  try {
    assert.is.not(fork.directory, chain.directory);
    assert.is(fork.head.header.blockNum, chain.head.header.blockNum);
    assert.is(await increment(fork, 'shared'), 2n);
    assert.is(await increment(fork, 'fork-only'), 1n);
    assert.is(await increment(chain, 'shared'), 2n);
    assert.is(await increment(chain, 'parent-only'), 1n);
    assert.is(await increment(fork, 'parent-only'), 1n);
    assert.is(await increment(chain, 'fork-only'), 1n);
  } finally {
    await fork.close();
  }
  assert.not.ok(existsSync(fork.directory));
});

dev('close removes the directory', async () => {
  const chain = await TestChain.boot();
  assert.ok(existsSync(chain.directory));
  await chain.close();
  assert.not.ok(existsSync(chain.directory));
});

dev.run();

// A secure chain: every account authenticates with auth-sig and the account key; blocks are signed.
interface SecureCtx { chain: BootedChain; key: KeyPair }
const secure = suite<SecureCtx>('TestChain.boot: a secure chain (keys)');

secure.before(async (ctx) => {
  ctx.key = generateKeyPair();
  ctx.chain = await TestChain.boot({ keys: { account: ctx.key, block: generateKeyPair() }, services: [{ account: 'tokens', code: TOKENS_WASM, registerServer: true, init: true }] });
  await ctx.chain.newAccount('alice');
  await ctx.chain.newAccount('bob');
  const minted = await ctx.chain.push([{ sender: 'tokens', service: 'tokens', method: 'mint', rawData: tokens.args('mint', { to: 'alice', amount: 100 }) }], { sign: ctx.key });
  assert.is(minted.error, null);
});
secure.after(async (ctx) => {
  await ctx.chain?.close();
});

const transfer = (to: string, amount: number) => ({ sender: 'alice', service: 'tokens', method: 'transfer', rawData: tokens.args('transfer', { to, amount, memo: 'rent' }) });

secure('a signed transfer goes into a signed block, with its event', async ({ chain, key }) => {
  const before = chain.head.header.blockNum;
  const pushed = await chain.push([transfer('bob', 30)], { sign: key });
  assert.is(pushed.error, null);
  assert.is(chain.head.header.blockNum, before + 1);
  const [event] = pushed.events;
  assert.equal(tokens.event('transferred', event!.value), { from: accountNumberFromName('alice'), to: accountNumberFromName('bob'), amount: 30n, memo: 'rent' });
  const { data } = await chain.graphql('tokens', '{ balance(owner: "bob") { amount } }');
  assert.equal(data, { balance: { amount: '30' } });
});

secure('an unsigned transfer, or one signed with another key, fails and moves nothing', async ({ chain }) => {
  const unsigned = await chain.push([transfer('bob', 1)]);
  assert.ok(unsigned.error);
  const other = await chain.push([transfer('bob', 1)], { sign: generateKeyPair() });
  assert.ok(other.error);
  const { data } = await chain.graphql('tokens', '{ balance(owner: "alice") { amount } }');
  assert.equal(data, { balance: { amount: '70' } });
});

secure('login needs the account key', async ({ chain, key }) => {
  assert.ok((await chain.login('alice', key)).length > 0);
  assert.is(await code(chain.login('alice', generateKeyPair())), 'TESTCHAIN_LOGIN_FAILED');
});

secure.run();
