// A real node process booted from a bundle, driven over HTTP: push_boot and push_transaction
// with their refusals, signed transactions, traces as JSON and fracpack, and a restart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  TransactionTrace, compileSchema, generateKeyPair, signTransaction, systemAction, type KeyPair,
} from '../../../host-api/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { configuredNodeDir, startNode, type RunningNode } from '../../lib/node-process.js';
import { testBundle } from '../../lib/test-bundle.js';

const INCREMENT_ARGS = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } });

interface Ctx { dir: string; bundle: string; node: RunningNode; alice: KeyPair }
const test = suite<Ctx>('node over HTTP');

const octet = { 'content-type': 'application/octet-stream' };
const push = (ctx: Ctx, body: Uint8Array, query = '?wait_for=applied', headers: Record<string, string> = octet, method = 'POST') =>
  httpRequest(serviceUrl(ctx.node.api, 'transact', '/push_transaction') + query, { method, body: method === 'GET' ? undefined : body, headers });

const tapos = (ctx: Ctx) => new ChainClient(ctx.node.api).tapos(60);

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-node-'));
  ctx.bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(ctx.bundle, await testBundle());
  ctx.node = await startNode(join(ctx.dir, 'node'), ['-p', 'prod', '--boot', ctx.bundle, '--block-interval', '200']);
  ctx.alice = generateKeyPair();
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('push_boot on a booted node: 200 with the error in the trace; wrong method and type refused', async (ctx) => {
  const url = new URL('/native/admin/push_boot', ctx.node.api).toString();
  const again = await httpRequest(url, { method: 'POST', body: Uint8Array.of(0, 0, 0, 0), headers: octet });
  assert.is(again.status, 200);
  assert.equal(again.json(), { actionTraces: [], error: 'chain is already booted' });
  const get = await httpRequest(url);
  assert.is(get.status, 405);
  const json = await httpRequest(url, { method: 'POST', body: Uint8Array.of(0), headers: { 'content-type': 'application/json' } });
  assert.is(json.status, 415);
  assert.is(json.text(), 'Content-Type must be application/octet-stream\n');
});

test('push_transaction refusals: method, content type, wait_for, undecodable body', async (ctx) => {
  const get = await push(ctx, new Uint8Array(), '', {}, 'GET');
  assert.is(get.status, 405);
  const type = await push(ctx, Uint8Array.of(1), '', { 'content-type': 'application/json' });
  assert.is(type.status, 415);
  assert.is(type.text(), 'Expected fracpack encoded signed transaction (application/octet-stream)');
  const waitFor = await push(ctx, Uint8Array.of(1), '?wait_for=later');
  assert.is(waitFor.status, 400);
  assert.is(waitFor.contentType, 'text/plain');
  assert.is(waitFor.text(), "wait_for must be final or applied, not 'later'");
  const garbage = await push(ctx, Uint8Array.of(1, 2, 3));
  assert.is(garbage.status, 500);
  assert.match(garbage.text(), /transaction has invalid format/);
});

test('a signed transaction from a new account, traces as JSON and as fracpack', async (ctx) => {
  const create = await push(ctx, signTransaction({
    tapos: await tapos(ctx),
    actions: [systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey })],
    claims: [],
  }, []));
  assert.is(create.status, 200);
  assert.is((create.json() as { error: string | null }).error, null);
  assert.is(create.contentType, 'application/json');
  const claims = [{ service: 'verify-sig', rawData: ctx.alice.publicKey }];
  const signed = signTransaction({
    tapos: await tapos(ctx),
    actions: [{ sender: 'alice', service: 'example', method: 'increment', rawData: INCREMENT_ARGS.pack({ name: 'n', by: 3n }) }],
    claims,
  }, [ctx.alice]);
  const r = await push(ctx, signed, '', { ...octet, accept: 'application/octet-stream' });
  assert.is(r.status, 200);
  assert.is(r.contentType, 'application/octet-stream');
  const trace = TransactionTrace.unpack(r.body);
  assert.is(trace.error, null);
  const unsigned = await push(ctx, signTransaction({ ...incrementByAlice(), tapos: await tapos(ctx), claims: [] }, []));
  assert.is(unsigned.status, 200);
  assert.match((unsigned.json() as { error: string }).error, /claim for the key/);
});

test('refused before a block, each with a 200 trace whose error says why: a forged signature, proofs and claims of different counts, expired, bad TaPoS, a duplicate', async (ctx) => {
  const claims = [{ service: 'verify-sig', rawData: ctx.alice.publicKey }];
  const good = await tapos(ctx);
  const body = (t: typeof good, by = 1n) => signTransaction({
    actions: [{ sender: 'alice', service: 'example', method: 'increment', rawData: INCREMENT_ARGS.pack({ name: 'checks', by }) }],
    tapos: t, claims,
  }, [ctx.alice]);
  const forged = body(good);
  forged[forged.length - 10]! ^= 0xff; // inside the proof's r||s
  const bad = await push(ctx, forged);
  assert.is(bad.status, 200);
  assert.equal(bad.json(), { actionTraces: [], error: "service 'verify-sig' aborted with message: signature invalid" });
  const unproven = await push(ctx, signTransaction({ ...incrementByAlice(), tapos: good, claims: [...claims, ...claims] }, [ctx.alice]));
  assert.is(unproven.status, 200);
  assert.equal(unproven.json(), { actionTraces: [], error: 'proofs and claims must have same size' });
  // The same refusal as fracpack, for a client that prefers it.
  const packed = await push(ctx, forged, '?wait_for=applied', { ...octet, accept: 'application/octet-stream' });
  assert.is(packed.status, 200);
  assert.is(TransactionTrace.unpack(packed.body).error, "service 'verify-sig' aborted with message: signature invalid");

  const expired = await push(ctx, body({ ...good, expiration: BigInt(Math.floor(Date.now() / 1000) - 5) }, 2n));
  assert.match((expired.json() as { error: string }).error, 'transaction has expired');
  const wrongSuffix = await push(ctx, body({ ...good, refBlockSuffix: (good.refBlockSuffix + 1) >>> 0 }, 3n));
  assert.match((wrongSuffix.json() as { error: string }).error, 'transaction references non-existing block');

  const once = body(good, 4n);
  const first = await push(ctx, once);
  assert.is((first.json() as { error: string | null }).error, null);
  const again = await push(ctx, once);
  assert.match((again.json() as { error: string }).error, /duplicate transaction/);
});

test('a body over 20 MiB is refused with 413 and the node keeps serving', async (ctx) => {
  const big = new Uint8Array(20 * 1024 * 1024 + 1);
  const refused = await push(ctx, big);
  assert.is(refused.status, 413);
  assert.is(refused.text(), `request body exceeds ${20 * 1024 * 1024} bytes`);
  const after = await push(ctx, Uint8Array.of(1, 2, 3));
  assert.is(after.status, 500, 'the next request is answered');
  assert.match(after.text(), /transaction has invalid format/);
});

function incrementByAlice() {
  return { actions: [{ sender: 'alice', service: 'example', method: 'increment', rawData: INCREMENT_ARGS.pack({ name: 'n', by: 1n }) }] };
}

test('a restarted node keeps its chain', async (ctx) => {
  await ctx.node.stop();
  ctx.node = await startNode(join(ctx.dir, 'node'), ['-p', 'prod', '--boot', ctx.bundle, '--block-interval', '200']);
  const claims = [{ service: 'verify-sig', rawData: ctx.alice.publicKey }];
  const r = await push(ctx, signTransaction({ ...incrementByAlice(), tapos: await tapos(ctx), claims }, [ctx.alice]), '?wait_for=final');
  assert.is(r.status, 200);
  assert.is((r.json() as { error: string | null }).error, null, 'alice (created before the restart) still exists');
});

test('--boot produces as the producer config.json names, and says when there is none', async (ctx) => {
  const configured = configuredNodeDir(ctx.dir, 'configured', { producer: 'prod' });
  const node = await startNode(configured, ['--boot', ctx.bundle, '--block-interval', '200']);
  try {
    assert.match(node.output(), 'producing as prod');
    const info = await httpRequest(serviceUrl(node.api, 'example', '/action_templates'));
    assert.is(info.status, 200, 'the bundle booted');
  } finally {
    await node.stop();
  }
  const none = await startNode(join(ctx.dir, 'no-producer'), ['--boot', ctx.bundle]).then(
    (n) => n.stop().then(() => 'started'),
    (err: Error) => err.message,
  );
  assert.match(none, 'booting needs a producer: --producer <name>, or "producer" in config.json');
});

test.run();
