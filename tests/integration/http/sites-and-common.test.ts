// docs/serving.md §1, §4.2-4.3 on a real node: sites hosting an account's files, the home page of the
// root domain, and common-api's pack endpoints and common files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { utf8Bytes as text } from '../../../host-api/encoding/utf8.js';
import { SignedTransaction, Transaction, bytesToHex, systemAction } from '../../../host-api/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient }
const test = suite<Ctx>('sites, homepage and common-api');

const store = (owner: string, path: string, contentType: string, content: string) =>
  systemAction(owner, 'sites.storeSys', { path, contentType, content: text(content) });

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-sites-'));
  ctx.node = await startBootedNode(ctx.dir);
  ctx.client = new ChainClient(ctx.node.api);
  await ctx.client.push([
    systemAction('root', 'accounts.newAccount', { name: 'site', authService: 'auth-any', requireMatch: true }),
    store('site', '/index.html', 'text/html', '<h1>site</h1>'),
    store('site', '/docs/index.html', 'text/html', '<h1>docs</h1>'),
    store('site', '/style.css', 'text/css', 'h1 {}'),
    store('common-api', '/common/extra.js', 'text/javascript', 'export const extra = 1;'),
  ], { waitFor: 'applied' });
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('sites serves an account\'s files with their content type; directories serve index.html', async (ctx) => {
  const get = (path: string) => httpRequest(serviceUrl(ctx.node.api, 'site', path));
  for (const [path, type, body] of [
    ['/', 'text/html', '<h1>site</h1>'], ['/index.html', 'text/html', '<h1>site</h1>'], ['/docs/', 'text/html', '<h1>docs</h1>'],
    ['/docs', 'text/html', '<h1>docs</h1>'], ['/style.css', 'text/css', 'h1 {}'], ['/style.css?v=2', 'text/css', 'h1 {}'],
  ] as const) {
    const r = await get(path);
    assert.is(r.status, 200, path);
    assert.is(r.contentType, type, path);
    assert.is(r.text(), body, path);
  }
  assert.is((await get('/missing.html')).status, 404);
  assert.is((await get('/docs/missing')).status, 404);
});

test('removeSys takes a file off the site; a bad path is refused with its reason', async (ctx) => {
  await ctx.client.push([systemAction('site', 'sites.storeSys', { path: '/old.txt', contentType: 'text/plain', content: text('old') })], { waitFor: 'applied' });
  assert.is((await httpRequest(serviceUrl(ctx.node.api, 'site', '/old.txt'))).text(), 'old');
  await ctx.client.push([systemAction('site', 'sites.removeSys', { path: '/old.txt' })], { waitFor: 'applied' });
  assert.is((await httpRequest(serviceUrl(ctx.node.api, 'site', '/old.txt'))).status, 404);
  const relative = ctx.client.push([store('site', 'relative.html', 'text/html', 'x')], { waitFor: 'applied' });
  assert.match(await rejectionMessage(relative, 'a relative path was accepted'), 'path must begin with /');
});

test('the root domain shows the home page, linking the registered services on this port', async (ctx) => {
  const r = await httpRequest(new URL('/', ctx.node.api).toString());
  assert.is(r.status, 200);
  assert.is(r.contentType, 'text/html');
  const port = ctx.node.port;
  assert.match(r.text(), `<a href="//example.tsibase.localhost:${port}/">example</a>`);
  assert.match(r.text(), /Chain id <code>[0-9A-F]{64}<\/code>/);
});

test('every service the home page links answers its own page at /', async (ctx) => {
  const home = (await httpRequest(new URL('/', ctx.node.api).toString())).text();
  const linked = [...home.matchAll(/<a href="\/\/([a-z0-9-]+)\.tsibase\.localhost:\d+\/">/g)].map((m) => m[1]!);
  assert.ok(linked.includes('explorer'), `explorer among ${linked}`);
  for (const service of linked) {
    const page = await httpRequest(serviceUrl(ctx.node.api, service, '/'));
    assert.is(page.status, 200, `${service}/ answers ${page.status}`);
    assert.is(page.contentType, 'text/html', service);
  }
});

test('POST /common/pack/Transaction and SignedTransaction pack exactly as host-api does', async (ctx) => {
  const trx = {
    tapos: { expiration: '2030-01-01T00:00:00Z', refBlockSuffix: 12345, flags: 0, refBlockIndex: 7 },
    actions: [
      { sender: 'alice', service: 'tokens', method: 'transfer', rawData: '0A0B' },
      { sender: 'bob', service: 'example', method: 'a_long_method_name_that_is_hashed', rawData: '' },
    ],
    claims: [{ service: 'verify-sig', rawData: 'CAFE' }],
  };
  const post = (path: string, body: unknown) => httpRequest(serviceUrl(ctx.node.api, 'example', path), {
    method: 'POST', body: text(JSON.stringify(body)), headers: { 'content-type': 'application/json' },
  });
  const packed = Transaction.pack(Transaction.fromJson(trx));
  const r = await post('/common/pack/Transaction', trx);
  assert.is(r.status, 200);
  assert.is(r.contentType, 'application/octet-stream');
  assert.equal(r.body, packed);
  const signed = SignedTransaction.pack({ transaction: packed, proofs: [Uint8Array.of(0xaa, 0xbb)], subjectiveData: null });
  assert.equal((await post('/common/pack/SignedTransaction', { transaction: trx, proofs: ['AABB'] })).body, signed);
  assert.equal((await post('/common/pack/SignedTransaction', { transaction: bytesToHex(packed), proofs: ['AABB'] })).body, signed);
  const bad = await post('/common/pack/Transaction', { tapos: 5 });
  assert.is(bad.status, 400);
  assert.is(bad.text(), 'transaction.tapos: expected an object');
  const badHex = await post('/common/pack/SignedTransaction', { transaction: 'ABCD', proofs: [] });
  assert.match(badHex.text(), 'the hex is not a packed transaction');
});

test('common files the common-api account stores are served under /common/ on every domain', async (ctx) => {
  for (const service of ['example', 'site']) {
    const r = await httpRequest(serviceUrl(ctx.node.api, service, '/common/extra.js'));
    assert.is(r.status, 200);
    assert.is(r.contentType, 'text/javascript');
    assert.is(r.text(), 'export const extra = 1;');
  }
  assert.is((await httpRequest(serviceUrl(ctx.node.api, 'site', '/common/none.js'))).status, 404);
});

test.run();
