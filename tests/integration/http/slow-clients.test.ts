// Slow and greedy clients against a real node (raw sockets): a request head or body dripped in a
// byte at a time gets 408 and the connection closes by its deadline (bytes do not extend it); a
// connection that never asks is closed; past max_connections a new connection gets 503 and the
// node logs the flood once; honest clients are served throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { adminRequest } from '../../lib/admin-requests.js';
import { configuredNodeDir, startNode, type RunningNode } from '../../lib/node-process.js';
import { closedByNode, drip, GIVE_UP_MS, rawClient, statusOf } from '../../lib/raw-http-client.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('slow clients and the connection limit');

/** A request must arrive within this (http_timeout), which the node also keeps idle connections. */
const HTTP_TIMEOUT_US = 1_000_000;
/** Long enough for a test to end before its held connections would be closed anyway. */
const LONG_TIMEOUT_US = 60_000_000;

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-slow-'));
  ctx.node = await startNode(configuredNodeDir(ctx.dir, 'node', { http_timeout: HTTP_TIMEOUT_US }));
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Keeps asking the node for its status until `until` settles; every answer must be 200. */
async function honestWhile(ctx: Ctx, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.then(() => (done = true), () => (done = true));
  let served = 0;
  while (!done) {
    const r = await adminRequest(ctx.node, '/native/admin/status');
    assert.is(r.status, 200, r.text());
    served++;
  }
  await until;
  return served;
}

test('a head dripped in a byte at a time gets 408 and is closed; honest clients are served meanwhile', async (ctx) => {
  const slow = Array.from({ length: 5 }, () => rawClient(ctx.node));
  // Far more bytes than arrive before the deadline: each one would reset an idle timer.
  for (const client of slow) drip(client, 'GET /native/admin/status HTTP/1.1\r\nHost: x-admin.tsibase.localhost\r\nX-Slow: ', 'a'.repeat(10_000));
  const served = await honestWhile(ctx, Promise.all(slow.map(closedByNode)));
  assert.ok(served > 0);
  for (const client of slow) {
    assert.is(statusOf(client.received()), 408, client.received());
    assert.match(client.received(), 'the request head did not arrive within 1 s');
  }
});

test('a body dripped in a byte at a time gets 408 and is closed', async (ctx) => {
  const slow = rawClient(ctx.node);
  const body = 'x'.repeat(5_000);
  drip(slow, `POST /native/admin/keys HTTP/1.1\r\nHost: x-admin.tsibase.localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body);
  await honestWhile(ctx, closedByNode(slow));
  assert.is(statusOf(slow.received()), 408, slow.received());
  assert.match(slow.received(), /the request body did not arrive within [\d.]+ s/);
});

test('a connection that never sends a byte is closed without a reply', async (ctx) => {
  const silent = rawClient(ctx.node);
  await honestWhile(ctx, closedByNode(silent));
  assert.is(silent.received(), '');
});

test('past max_connections a new connection gets 503 text/plain and the flood is logged once', async (ctx) => {
  // A node of its own, so that no connection but the test's raw ones is open (a pooled client
  // connection closing at its own pace would make room at an unknown moment).
  const limit = 6;
  const node = await startNode(configuredNodeDir(ctx.dir, 'limited', { http_timeout: LONG_TIMEOUT_US, max_connections: limit }));
  let log = '';
  node.process.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const held = Array.from({ length: limit }, () => rawClient(node));
  try {
    // Held open: each has sent the start of a head, far from its deadline.
    await Promise.all(held.map((c) => c.connected));
    for (const client of held) client.socket.write('GET / HTTP/1.1\r\n');
    // Accepted after the held ones, so past the limit: refused before its request is read.
    const refused = rawClient(node);
    refused.socket.write('GET /native/admin/status HTTP/1.1\r\nHost: x-admin.tsibase.localhost\r\nConnection: close\r\n\r\n');
    await closedByNode(refused);
    const reply = refused.received();
    assert.is(statusOf(reply), 503, reply);
    assert.match(reply, /\r\nContent-Type: text\/plain\r\n/);
    assert.match(reply, /\r\nConnection: close\r\n/);
    assert.ok(reply.endsWith('the node has too many open connections; try again later\n'), reply);
    // A flood: every one refused, one log line for them all.
    const more = Array.from({ length: 20 }, () => rawClient(node));
    await Promise.all(more.map(closedByNode));
    for (const client of more) assert.is(statusOf(client.received()), 503, client.received());
    const lines = log.split('\n').filter((l) => l.includes('refusing new connections with 503'));
    assert.is(lines.length, 1, log);
    assert.match(lines[0]!, `${limit} open, max_connections is ${limit}`);

    // Connections closed make room again: honest clients are served.
    for (const client of held) client.socket.destroy();
    let status = 503;
    const start = Date.now();
    while (status === 503 && Date.now() - start < GIVE_UP_MS) status = (await adminRequest(node, '/native/admin/status')).status;
    assert.is(status, 200);
  } finally {
    for (const client of held) client.socket.destroy();
    await node.stop();
  }
});

test('max_connections is checked by PUT /config: a 400 names the field', async (ctx) => {
  const base = (await adminRequest(ctx.node, '/config')).json() as Record<string, unknown>;
  for (const bad of [0, -1, 1.5, 'many', true, 2_000_000]) {
    const r = await adminRequest(ctx.node, '/config', { method: 'PUT', json: { ...base, max_connections: bad } });
    assert.is(r.status, 400, JSON.stringify(bad));
    assert.match(r.text(), 'max_connections');
  }
  const kept = (await adminRequest(ctx.node, '/config')).json() as Record<string, unknown>;
  assert.equal(kept, base, 'a refused configuration changes nothing');
});

test.run();
