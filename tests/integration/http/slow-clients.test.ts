// Slow and greedy clients against a real node (raw sockets): a request head or body dripped in a
// byte at a time gets 408 and the connection closes by its deadline (bytes do not extend it); a
// connection that never asks is closed; past max_connections a new connection gets 503 and the
// node logs the flood once; honest clients are served throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { adminRequest } from '../../lib/admin-requests.js';
import { configuredNodeDir, startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; log: string }
const test = suite<Ctx>('slow clients and the connection limit');

/** A request must arrive within this (http_timeout), which the node also keeps idle connections. */
const HTTP_TIMEOUT_US = 1_000_000;
/** Long enough for a test to end before its clients would be closed anyway. */
const LONG_TIMEOUT_US = 60_000_000;
/** A guard against waiting for ever on a node that never closes a connection. */
const GIVE_UP_MS = 20_000;

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-slow-'));
  ctx.node = await startNode(configuredNodeDir(ctx.dir, 'node', { http_timeout: HTTP_TIMEOUT_US }));
  ctx.log = '';
  ctx.node.process.stderr!.on('data', (chunk: Buffer) => (ctx.log += chunk.toString()));
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

interface RawClient {
  readonly socket: Socket;
  /** Everything the node sent. */
  received(): string;
  /** Settles when the node closes the connection (rejects after GIVE_UP_MS). */
  readonly closed: Promise<void>;
  /** Settles once the connection is open. */
  readonly connected: Promise<void>;
}

function rawClient(node: RunningNode): RawClient {
  const socket = connect(Number(node.port), '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<void>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`the node kept the connection open; it sent ${JSON.stringify(received)}`)), GIVE_UP_MS);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve();
    });
  });
  return { socket, received: () => received, closed, connected };
}

/** Writes `prefix`, then one byte of `drip` every 100 ms until the connection closes (or the drip runs out). */
function drip(client: RawClient, prefix: string, drip: string): void {
  client.socket.write(prefix);
  let at = 0;
  const timer = setInterval(() => {
    if (client.socket.destroyed || client.socket.writableEnded || at >= drip.length) return clearInterval(timer);
    client.socket.write(drip[at++]!);
  }, 100);
  client.socket.once('close', () => clearInterval(timer));
}

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
  return served;
}

const statusOf = (received: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);

test('a head dripped in a byte at a time gets 408 and is closed; honest clients are served meanwhile', async (ctx) => {
  const slow = Array.from({ length: 5 }, () => rawClient(ctx.node));
  // Far more bytes than arrive before the deadline: each one would reset an idle timer.
  for (const client of slow) drip(client, 'GET /native/admin/status HTTP/1.1\r\nHost: x-admin.tsibase.localhost\r\nX-Slow: ', 'a'.repeat(10_000));
  const served = await honestWhile(ctx, Promise.all(slow.map((c) => c.closed)));
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
  await honestWhile(ctx, slow.closed);
  assert.is(statusOf(slow.received()), 408, slow.received());
  assert.match(slow.received(), /the request body did not arrive within \d+ s/);
});

test('a connection that never sends a byte is closed without a reply', async (ctx) => {
  const silent = rawClient(ctx.node);
  await honestWhile(ctx, silent.closed);
  assert.is(silent.received(), '');
});

test('past max_connections a new connection gets 503 text/plain and the flood is logged once', async (ctx) => {
  const base = (await adminRequest(ctx.node, '/config')).json() as Record<string, unknown>;
  const limit = 6;
  const put = await adminRequest(ctx.node, '/config', { method: 'PUT', json: { ...base, http_timeout: LONG_TIMEOUT_US, max_connections: limit } });
  assert.is(put.status, 200, put.text());
  // Connections held open: each one has sent the start of a head, far from its deadline now.
  const held = Array.from({ length: limit }, () => rawClient(ctx.node));
  await Promise.all(held.map((c) => c.connected));
  for (const client of held) client.socket.write('GET / HTTP/1.1\r\n');
  // The client's own pooled connection (the PUT's) may be one of the open ones: a few more
  // connections may be taken before the first 503, never more than that.
  let refused: RawClient | undefined;
  const taken: RawClient[] = [];
  while (!refused && taken.length <= 2) {
    const client = rawClient(ctx.node);
    client.socket.write('GET /native/admin/status HTTP/1.1\r\nHost: x-admin.tsibase.localhost\r\nConnection: close\r\n\r\n');
    await client.closed;
    if (statusOf(client.received()) === 503) refused = client;
    else taken.push(client);
  }
  assert.ok(refused, `${taken.length} connections taken past ${limit} held ones`);
  const reply = refused.received();
  assert.match(reply, /\r\nContent-Type: text\/plain\r\n/);
  assert.match(reply, /\r\nConnection: close\r\n/);
  assert.ok(reply.endsWith('the node has too many open connections; try again later\n'), reply);
  // A flood: every one refused, one log line for them all.
  const more = Array.from({ length: 20 }, () => rawClient(ctx.node));
  await Promise.all(more.map((c) => c.closed));
  for (const client of more) assert.is(statusOf(client.received()), 503);
  const lines = ctx.log.split('\n').filter((l) => l.includes('refusing new connections with 503'));
  assert.is(lines.length, 1, ctx.log);
  assert.match(lines[0]!, `max_connections is ${limit}`);

  // Connections closed make room again: honest clients are served.
  for (const client of held) client.socket.destroy();
  let status = 503;
  const start = Date.now();
  while (status === 503 && Date.now() - start < GIVE_UP_MS) status = (await adminRequest(ctx.node, '/native/admin/status')).status;
  assert.is(status, 200);
  // null takes the field out again (absent: the node's default).
  const restored = await adminRequest(ctx.node, '/config', { method: 'PUT', json: { ...base, max_connections: null } });
  assert.is(restored.status, 200, restored.text());
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
