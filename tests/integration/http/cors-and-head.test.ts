// CORS on every reply of a chain host (docs/serving.md §1.6), errors included, unless a service made its
// own CORS decision; /native/admin/* preflights for the node's own admin app only; HEAD answered
// as the GET it asks about, without the body but with its Content-Length.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { utf8Bytes } from '../../../host-api/encoding/utf8.js';
import { httpRequest, serviceUrl, type HttpReply } from '../../../runtime/cli/client.js';
import { adminRequest, hostRequest } from '../../lib/admin-requests.js';
import { startHttpProbeNode } from '../../lib/http-probe-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { runsNode } from '../../lib/node-suite.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('CORS on every reply, admin preflight, HEAD');

const CORS_A = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS, HEAD, PUT, DELETE',
  'access-control-allow-headers': '*',
};

const get = (ctx: Ctx, service: string, path: string, init: Parameters<typeof httpRequest>[1] = {}) =>
  httpRequest(serviceUrl(ctx.node.api, service, path), init);

function corsOf(r: HttpReply): Record<string, unknown> {
  return Object.fromEntries(Object.keys(CORS_A).map((name) => [name, r.headers[name]]));
}

runsNode(test, 'cors', (dir) => startHttpProbeNode(dir));

test('error replies of chain hosts carry CORS A, with their status and message', async (ctx) => {
  const origin = { origin: 'http://app.example' };
  const cases: [HttpReply, number, RegExp][] = [
    [await get(ctx, 'probe', '/abort', { headers: origin }), 500, /aborted with message: probe refused/],
    [await get(ctx, 'probe', '/bad-header', { headers: origin }), 500, /attempted to set http header X-Custom/],
    [await get(ctx, 'probe', '/bad-status', { headers: origin }), 500, /Invalid status code/],
    [await get(ctx, 'probe', '/nothing', { headers: origin }), 404, /was not found/],
    [await get(ctx, 'nobody', '/x', { headers: origin }), 404, /was not found/],
    [await get(ctx, 'transact', '/login', { method: 'POST', body: utf8Bytes('{'), headers: { ...origin, 'content-type': 'application/json' } }), 400, /invalid login transaction/],
    [await get(ctx, 'transact', '/login', { method: 'POST', body: utf8Bytes('x'), headers: { ...origin, 'content-type': 'text/plain' } }), 500, /Expected a json or fracpack body/],
    [await get(ctx, 'transact', '/login', { headers: origin }), 405, /does not accept the method GET/],
    [await get(ctx, 'transact', '/push_transaction', { headers: origin }), 405, /^The resource '\/push_transaction' does not accept the method GET\.$/],
  ];
  for (const [r, status, message] of cases) {
    assert.is(r.status, status, r.text());
    assert.match(r.text(), message);
    assert.equal(corsOf(r), CORS_A, r.text());
  }
});

test('successful service replies carry CORS A too; a 405 keeps CORS B', async (ctx) => {
  const reply = await get(ctx, 'probe', '/reply');
  assert.is(reply.status, 201);
  assert.equal(corsOf(reply), CORS_A);
  const patch = await get(ctx, 'probe', '/reply', { method: 'PATCH' });
  assert.is(patch.status, 405);
  assert.is(patch.headers['access-control-allow-origin'], '*');
  assert.is(patch.headers['access-control-allow-methods'], 'POST, GET, OPTIONS, HEAD');
});

test("a service's own CORS decision stands: credentialed CORS for the supervisor only", async (ctx) => {
  const preflight = (origin: string) => get(ctx, 'probe', '/common/set-auth-cookie', {
    method: 'OPTIONS', headers: { origin, 'access-control-request-headers': 'content-type' },
  });
  const supervisor = `http://supervisor.tsibase.localhost:${ctx.node.port}`;
  assert.is((await preflight(supervisor)).headers['access-control-allow-origin'], supervisor);
  const foreign = await preflight('http://evil.example');
  assert.is(foreign.headers['access-control-allow-credentials'], 'true');
  assert.is(foreign.headers['access-control-allow-origin'], undefined);
});

test("node-local hosts and /native outside the admin API are not chain replies: no CORS", async (ctx) => {
  const missing = await adminRequest(ctx.node, '/missing.html', { headers: { origin: 'http://app.example' } });
  assert.is(missing.status, 404);
  assert.is(missing.headers['access-control-allow-origin'], undefined);
  const native = await hostRequest(ctx.node, 'probe.tsibase.localhost', '/native/nothing', { headers: { origin: 'http://app.example' } });
  assert.is(native.status, 404);
  assert.is(native.headers['access-control-allow-origin'], undefined);
});

test('/native/admin/* answers preflight: echo CORS for an x-admin app origin, none for other sites', async (ctx) => {
  const preflight = (origin: string) => hostRequest(ctx.node, 'tsibase.localhost', '/native/admin/keys', {
    method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  for (const origin of ['http://x-admin.tsibase.localhost:9999', 'https://x-admin.tsibase.localhost']) {
    const r = await preflight(origin);
    assert.is(r.status, 204, origin);
    assert.equal(corsOf(r), { ...CORS_A, 'access-control-allow-origin': origin });
    const status = await hostRequest(ctx.node, 'tsibase.localhost', '/native/admin/status', { headers: { origin } });
    assert.is(status.status, 200);
    assert.is(status.headers['access-control-allow-origin'], origin);
  }
  for (const origin of ['http://evil.example', 'http://x-admin.evil.example', 'http://probe.tsibase.localhost', 'null']) {
    const r = await preflight(origin);
    assert.is(r.status, 204, origin);
    assert.equal(corsOf(r), { 'access-control-allow-origin': undefined, 'access-control-allow-methods': undefined, 'access-control-allow-headers': undefined }, origin);
    const status = await hostRequest(ctx.node, 'tsibase.localhost', '/native/admin/status', { headers: { origin } });
    assert.is(status.headers['access-control-allow-origin'], undefined, origin);
  }
});

test('HEAD is the GET without its body: same status, type and Content-Length', async (ctx) => {
  const targets: [service: string, path: string][] = [
    ['probe', '/reply'],
    ['probe', '/user'],
    ['probe', '/nothing'],
    ['probe', '/abort'],
    ['example', '/common/chainid'],
    ['example', '/common/common-lib.js'],
  ];
  for (const [service, path] of targets) {
    const full = await get(ctx, service, path);
    const head = await get(ctx, service, path, { method: 'HEAD' });
    assert.is(head.status, full.status, path);
    assert.is(head.contentType, full.contentType, path);
    assert.is(head.headers['content-length'], String(full.body.length), path);
    assert.is(head.body.length, 0, path);
    assert.equal(corsOf(head), CORS_A, path);
  }
  // Static files of node-local hosts too.
  const page = await adminRequest(ctx.node, '/');
  const pageHead = await adminRequest(ctx.node, '/', { method: 'HEAD' });
  assert.is(pageHead.status, 200);
  assert.ok(page.body.length > 0);
  assert.is(pageHead.headers['content-length'], String(page.body.length));
  assert.is(pageHead.body.length, 0);
});

test.run();
