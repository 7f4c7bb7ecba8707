// In-memory requests (runtime/testing/in-memory-http.ts) through the node's own handler over a
// real chain that has not booted: what the handler answers comes back as status, fields and
// body, the bytes a connection would have written; HEAD keeps its head without a body; a
// request a connection would refuse is refused before the handler sees it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TsibaseError } from '../../../../host-api/errors.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { NodeHttpServer } from '../../../../runtime/http/server.js';
import { SessionTokens } from '../../../../runtime/http/session-tokens.js';
import { HttpSockets } from '../../../../runtime/http/sockets.js';
import { inMemoryExchange, type TestHttpReply, type TestHttpRequest } from '../../../../runtime/testing/in-memory-http.js';
import { Engine } from '../../../../runtime/wasm/engine.js';

interface Ctx { dir: string; store: LmdbStore; server: NodeHttpServer }
const test = suite<Ctx>('in-memory HTTP through the node handler');

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-in-memory-http-'));
  ctx.store = LmdbStore.open(ctx.dir);
  const sockets = new HttpSockets();
  const chain = new Chain(ctx.store, new Engine(), { sockets });
  ctx.server = new NodeHttpServer(chain, { sockets, tokens: SessionTokens.withRandomKey(), localHosts: new Map(), adminRoutes: { serve: async () => false } });
  ctx.server.configure({ hosts: ['tsibase.localhost'], services: [], httpTimeoutUs: null, maxConnections: undefined }, ctx.dir);
});

test.after(async (ctx) => {
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

function ask(ctx: Ctx, request: TestHttpRequest): Promise<TestHttpReply> {
  const { req, res, reply } = inMemoryExchange(request, 'tsibase.localhost');
  ctx.server.answer(req, res);
  return reply;
}

test('a chain host without a chain redirects to x-admin: status, fields and body read back', async (ctx) => {
  const r = await ask(ctx, { path: '/apps?x=1' });
  assert.is(r.status, 302);
  assert.is(r.headers.location, 'http://x-admin.tsibase.localhost/');
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.is(r.headers['content-length'], String(r.body.length));
  assert.match(r.text(), 'Node is not connected to any psibase network');
});

test('HEAD answers the head of the GET without its body', async (ctx) => {
  const get = await ask(ctx, { path: '/' });
  const head = await ask(ctx, { method: 'HEAD', path: '/' });
  assert.is(head.status, get.status);
  assert.is(head.headers['content-length'], get.headers['content-length']);
  assert.is(head.body.length, 0);
});

test('a body is sent with its length; other hosts get their own answers', async (ctx) => {
  const post = await ask(ctx, { method: 'POST', path: '/x', body: 'hello', headers: { 'Content-Type': 'text/plain' } });
  assert.is(post.status, 503);
  const other = await ask(ctx, { host: 'example.com', path: '/' });
  assert.is(other.status, 302);
  assert.is(other.headers.location, 'http://tsibase.localhost/');
});

test('a request a connection would refuse throws its error', () => {
  const codeOf = (request: TestHttpRequest) => {
    try {
      inMemoryExchange(request, 'tsibase.localhost');
    } catch (err) {
      return (err as TsibaseError).code;
    }
    return undefined;
  };
  assert.is(codeOf({ path: 'no-slash' }), 'TESTCHAIN_BAD_REQUEST');
  assert.is(codeOf({ path: '/a b' }), 'HTTP_BAD_REQUEST');
  assert.is(codeOf({ path: '/', headers: { 'X-Bad': 'one\r\nInjected: two' } }), 'TESTCHAIN_BAD_REQUEST');
  assert.is(codeOf({ path: '/', headers: { 'X Bad': 'one' } }), 'HTTP_BAD_REQUEST');
  assert.is(codeOf({ method: 'GE T', path: '/' }), 'HTTP_BAD_REQUEST');
});

test.run();
