// docs/serving.md §1 and §4.5, docs/http.md §1-3 on a real node: the http service routes subdomains to their
// registered server, /common/ to common-api, and turns each serveSys outcome into a reply.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coreSchema } from '../../../host-api/types/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { startHttpProbeNode } from '../../lib/http-probe-node.js';
import type { RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('HTTP routing through the http service');

const get = (ctx: Ctx, service: string, path: string, init: Parameters<typeof httpRequest>[1] = {}) =>
  httpRequest(serviceUrl(ctx.node.api, service, path), init);

/** transact::addCallback and removeCallback's arguments; type 1 is onBlock. */
const CallbackArgs = coreSchema.typeOf({ Object: { type: 'u8', objective: 'bool', act: 'Action' } });
const NO_ARGS = coreSchema.typeOf({ Object: {} }).pack({});

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-routing-'));
  ctx.node = await startHttpProbeNode(ctx.dir);
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a registered server answers with its status, content type, body and allowed headers', async (ctx) => {
  const r = await get(ctx, 'probe', '/reply');
  assert.is(r.status, 201);
  assert.is(r.contentType, 'text/plain');
  assert.is(r.text(), 'hello');
  const counter = await get(ctx, 'example', '/counter?owner=root&name=none');
  assert.is(counter.status, 200);
  assert.is(counter.text(), 'null');
});

test('the request as serveSys sees it: method, host without port, target, type, body; hidden headers dropped', async (ctx) => {
  const r = await get(ctx, 'probe', '/echo?x=1', {
    method: 'POST', body: new Uint8Array(5), headers: { 'content-type': 'application/x-test', 'x-test': 'yes', 'proxy-authorization': 'secret' },
  });
  const seen = r.json() as { method: string; host: string; target: string; contentType: string; body: number; headers: string[] };
  assert.equal({ ...seen, headers: undefined }, {
    method: 'POST', host: 'probe.tsibase.localhost', target: '/echo?x=1', contentType: 'application/x-test', body: 5, headers: undefined,
  });
  assert.ok(seen.headers.includes('x-test'));
  assert.not.ok(seen.headers.includes('proxy-authorization'));
});

test('an abort is a 500 carrying the abort message', async (ctx) => {
  const r = await get(ctx, 'probe', '/abort');
  assert.is(r.status, 500);
  assert.is(r.text(), "service 'probe' aborted with message: probe refused");
});

test('a header a chain service may not set, and a status out of range, are 500s', async (ctx) => {
  const header = await get(ctx, 'probe', '/bad-header');
  assert.is(header.status, 500);
  assert.is(header.text(), "service 'http' aborted with message: service probe attempted to set http header X-Custom");
  const status = await get(ctx, 'probe', '/bad-status');
  assert.is(status.status, 500);
  assert.is(status.text(), 'Invalid status code');
});

test('a reply header or content type Node cannot write is a 500 naming it, and the node serves on', async (ctx) => {
  const value = await get(ctx, 'probe', '/bad-header-value');
  assert.is(value.status, 500);
  assert.is(value.text(), 'Invalid reply header: Invalid character in header content [&quot;Cache-Control&quot;]');
  assert.is(value.headers['x-injected'], undefined);
  const type = await get(ctx, 'probe', '/bad-content-type');
  assert.is(type.status, 500);
  assert.match(type.text(), /Invalid reply header: .*Content-Type/);
  assert.is((await get(ctx, 'probe', '/reply')).status, 201);
});

test('sendReply during serveSys answers the request; the return value is then not used', async (ctx) => {
  const r = await get(ctx, 'probe', '/send');
  assert.is(r.status, 200);
  assert.is(r.text(), 'sent');
});

test('a deferred reply waits until another request sends it', async (ctx) => {
  const waiting = get(ctx, 'probe', '/defer');
  let settled = false;
  void waiting.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.not.ok(settled, 'the deferred request is still open');
  const answer = await get(ctx, 'probe', '/answer');
  assert.is(answer.text(), 'answered');
  const r = await waiting;
  assert.is(r.status, 200);
  assert.is(r.text(), 'deferred answer');
});

test('claimReply takes a deferred request back: the context that claimed it answers it, or the node does when it fails', async (ctx) => {
  const first = get(ctx, 'probe', '/defer');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is((await get(ctx, 'probe', '/claim-and-send')).text(), 'claimed');
  assert.is((await first).text(), 'claimed answer');
  const second = get(ctx, 'probe', '/defer');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const failing = await get(ctx, 'probe', '/claim-and-fail');
  assert.is(failing.status, 500);
  const abandoned = await second;
  assert.is(abandoned.status, 500, 'the claiming context failed, so the node answered the request it owned');
  assert.match(abandoned.text(), /claimed, then failed/);
  assert.is((await get(ctx, 'probe', '/claim-and-send')).status, 500, 'a request answered is no longer deferred');
});

test('a request a subjective block callback claimed and failed is answered by the node with the callback\'s error', async (ctx) => {
  const waiting = get(ctx, 'probe', '/defer-for-block');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const client = new ChainClient(ctx.node.api);
  const callback = (method: string) => ({
    sender: 'transact', service: 'transact', method,
    // A subjective callback has no sender.
    rawData: CallbackArgs.pack({ type: 1, objective: false, act: { sender: 0n, service: 'probe', method: 'claimAtBlock', rawData: NO_ARGS } }),
  });
  await client.push([callback('addCallback')], { waitFor: 'applied' });
  try {
    const r = await waiting;
    assert.is(r.status, 500);
    assert.match(r.text(), 'claimed at a block, then failed');
  } finally {
    await client.push([callback('removeCallback')], { waitFor: 'applied' });
  }
});

test('a node stopped while a request it deferred is open (the deferral outlived an abort) exits cleanly, answering that request with a 503', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-routing-stop-'));
  const node = await startHttpProbeNode(dir);
  try {
    const open = httpRequest(serviceUrl(node.api, 'probe', '/defer-and-abort')).then((r) => `${r.status} ${r.text()}`, (e: Error) => e.message);
    let settled = false;
    void open.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.not.ok(settled, 'the request is left open');
    const exited = new Promise<number | null>((resolve) => node.process.once('exit', (code) => resolve(code)));
    node.process.kill('SIGTERM');
    assert.is(await exited, 0, node.output());
    assert.is(await open, '503 the node is shutting down', 'no service can answer it once the chain is closed');
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unanswered: 404 with CORS for other methods, 200 for OPTIONS; an unknown subdomain too', async (ctx) => {
  const declined = await get(ctx, 'probe', '/nothing');
  assert.is(declined.status, 404);
  assert.is(declined.text(), "The resource '/nothing' was not found");
  // Clients percent-encode < > and ", but ' and & reach the node as they are.
  const markup = await get(ctx, 'probe', "/it's&more");
  assert.is(markup.text(), "The resource '/it&#39;s&amp;more' was not found", 'the target is not markup');
  const native = await get(ctx, 'probe', "/native/it's");
  assert.is(native.text(), "The resource '/native/it&#39;s' was not found");
  const unknown = await get(ctx, 'nobody', '/x');
  assert.is(unknown.status, 404);
  const options = await get(ctx, 'nobody', '/x', { method: 'OPTIONS' });
  assert.is(options.status, 200);
  assert.is(options.text(), '');
});

test('methods services never see are refused by the node with 405', async (ctx) => {
  const r = await get(ctx, 'probe', '/reply', { method: 'PATCH' });
  assert.is(r.status, 405);
  assert.is(r.text(), "The resource '/reply' does not accept the method PATCH.");
});

test('/common/ on any domain goes to common-api', async (ctx) => {
  const service = await get(ctx, 'probe', '/common/thisservice');
  assert.is(service.json(), 'probe');
  const root = await httpRequest(new URL('/common/thisservice', ctx.node.api).toString());
  assert.is(root.json(), 'homepage');
  const domain = await get(ctx, 'example', '/common/rootdomain');
  assert.is(domain.json(), 'tsibase.localhost');
  const head = (await get(ctx, 'example', '/common/tapos/head')).json() as Record<string, number>;
  assert.equal(Object.keys(head), ['refBlockIndex', 'refBlockSuffix']);
  assert.ok(Number.isInteger(head.refBlockIndex) && head.refBlockIndex! < 128);
  const chainId = (await get(ctx, 'example', '/common/chainid')).json();
  assert.match(String(chainId), /^[0-9A-F]{64}$/);
});

test.run();
