// Host resolution on real nodes (docs/http.md §1, §3, §4): other hosts are redirected to the root,
// a node without a chain sends browsers to x-admin, node-local x-* hosts are served by the node
// before and after boot (admins only for x-admin), and an x-* label without local code is an
// ordinary chain subdomain.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hostRequest } from '../../lib/admin-requests.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; empty: RunningNode; booted: RunningNode }
const test = suite<Ctx>('host resolution, node-local hosts, before boot');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-hosts-'));
  ctx.empty = await startNode(join(ctx.dir, 'empty'), ['--host', 'tsibase.localhost', '--host', 'other.localhost']);
  ctx.booted = await startBootedNode(ctx.dir, { name: 'booted' });
});

test.after(async (ctx) => {
  await ctx.empty?.stop();
  await ctx.booted?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('hosts that are not a root or one of its subdomains are redirected to the (first) root', async (ctx) => {
  for (const host of ['example.com', 'a.b.tsibase.localhost', 'Not_An_Account.tsibase.localhost']) {
    const r = await hostRequest(ctx.empty, host, '/page?x=1');
    const location = `http://tsibase.localhost:${ctx.empty.port}/page?x=1`;
    assert.is(r.status, 302, host);
    assert.is(r.headers.location, location);
    assert.is(r.text(), `<html><body>This psibase server is hosted at <a href="${location}">${location}</a>.</body></html>`);
    assert.is(r.headers['access-control-allow-origin'], '*');
  }
  // A nested name under the longer root matches that root.
  const nested = await hostRequest(ctx.empty, 'a.b.other.localhost', '/');
  assert.is(nested.headers.location, `http://other.localhost:${ctx.empty.port}/`);
});

test('without a chain: GET and HEAD go to x-admin, other methods are 503', async (ctx) => {
  for (const host of ['tsibase.localhost', 'tokens.tsibase.localhost', 'x-unknown.tsibase.localhost']) {
    const r = await hostRequest(ctx.empty, host, '/anything');
    const location = `http://x-admin.tsibase.localhost:${ctx.empty.port}/`;
    assert.is(r.status, 302, host);
    assert.is(r.headers.location, location);
    assert.match(r.text(), 'Node is not connected to any psibase network.');
    const post = await hostRequest(ctx.empty, host, '/anything', { method: 'POST' });
    assert.is(post.status, 503);
    assert.is(post.text(), '<html><body>Node is not connected to any psibase network.</body></html>');
  }
});

test('x-admin is served by the node before boot, to admins only; what it lacks is a 404 without CORS', async (ctx) => {
  for (const node of [ctx.empty, ctx.booted]) {
    const page = await hostRequest(node, 'x-admin.tsibase.localhost', '/');
    assert.is(page.status, 200);
    assert.is(page.contentType, 'text/html');
    assert.match(page.text(), '<script type="module" src="/admin.js">');
    const script = await hostRequest(node, 'x-admin.tsibase.localhost', '/admin.js');
    assert.is(script.contentType, 'text/javascript');
    const missing = await hostRequest(node, 'x-admin.tsibase.localhost', '/missing.html');
    assert.is(missing.status, 404);
    assert.is(missing.text(), "The resource '/missing.html' was not found");
    assert.is(missing.headers['access-control-allow-origin'], undefined);
    const escape = await hostRequest(node, 'x-admin.tsibase.localhost', '/%2e%2e/package.json');
    assert.is(escape.status, 404);
  }
  const forwarded = await hostRequest(ctx.empty, 'x-admin.tsibase.localhost', '/', { headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.is(forwarded.status, 401);
  assert.is(forwarded.text(), 'Not authorized');
  const nativeAdmin = await hostRequest(ctx.empty, 'x-admin.tsibase.localhost', '/native/admin/push_boot', { method: 'POST', headers: { forwarded: 'for=203.0.113.9' } });
  assert.is(nativeAdmin.status, 401);
});

test('on a booted node an x-* label without local code is a chain subdomain; /native elsewhere is the node\'s', async (ctx) => {
  const unknown = await hostRequest(ctx.booted, 'x-unknown.tsibase.localhost', '/page');
  assert.is(unknown.status, 404);
  assert.is(unknown.text(), "The resource '/page' was not found");
  assert.is(unknown.headers['access-control-allow-origin'], '*');
  const common = await hostRequest(ctx.booted, 'x-unknown.tsibase.localhost', '/common/rootdomain');
  assert.is(common.json(), 'tsibase.localhost');
  const native = await hostRequest(ctx.booted, 'example.tsibase.localhost', '/native/nothing');
  assert.is(native.status, 404);
  assert.is(native.headers['access-control-allow-origin'], undefined);
});

test.run();
