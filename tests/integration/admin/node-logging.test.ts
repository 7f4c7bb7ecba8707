// The node's logging on a real node process: loggers from the configuration (docs/administration.md §2 "Logger
// configuration"), changed by PUT /config, and the log websocket (docs/administration.md §4.1 rule 5, docs/http.md §8).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { X_ADMIN, adminRequest } from '../../lib/admin-requests.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('node logging');

async function putConfig(node: RunningNode, change: (config: Record<string, unknown>) => Record<string, unknown>) {
  const config = JSON.parse((await adminRequest(node, '/config')).text()) as Record<string, unknown>;
  const r = await adminRequest(node, '/config', { method: 'PUT', json: change(config) });
  assert.is(r.status, 200, r.text());
}

/** A log websocket with the messages it received and how it closed. */
function logSocket(node: RunningNode, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${node.port}/native/admin/log`, { headers: { host: `${X_ADMIN}:${node.port}`, ...headers } });
  const messages: string[] = [];
  ws.on('message', (data) => messages.push(data.toString()));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return { ws, messages, opened, closed };
}

/** Waits until `check` holds (records travel asynchronously). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), what);
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-logging-'));
  ctx.node = await startNode(join(ctx.dir, 'node'));
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the log path without an upgrade is a 404; a foreign Origin is 400; a non-admin is 401', async (ctx) => {
  assert.is((await adminRequest(ctx.node, '/native/admin/log')).status, 404);
  const refusal = (s: ReturnType<typeof logSocket>) => s.opened.then(() => 'opened', (e: Error) => e.message);
  assert.is(await refusal(logSocket(ctx.node, { origin: 'http://evil.example' })), 'HTTP 400');
  assert.is(await refusal(logSocket(ctx.node, { forwarded: 'for=203.0.113.9' })), 'HTTP 401');
  const own = logSocket(ctx.node, { origin: `http://${X_ADMIN}:${ctx.node.port}` });
  await own.opened;
  own.ws.close();
});

test('nothing is sent before the first configuration; then one record per frame, filtered and formatted', async (ctx) => {
  const socket = logSocket(ctx.node);
  await socket.opened;
  await adminRequest(ctx.node, '/native/admin/status?marker=before');
  socket.ws.send(JSON.stringify({ filter: 'Channel = http and Request.Target != "/native/admin/status?marker=ignored"', format: '{Request.Method} {Request.Target} {Response.Status}', unknown: 1 }));
  // The change is asynchronous (rule 5): wait until a request shows up, then check what came.
  await until(() => { void adminRequest(ctx.node, '/native/admin/status?marker=probe'); return socket.messages.length > 0; }, 'records arrive');
  await adminRequest(ctx.node, '/native/admin/status?marker=ignored');
  await adminRequest(ctx.node, '/native/admin/nothing?marker=after');
  await until(() => socket.messages.includes('GET /native/admin/nothing?marker=after 404'), 'the 404 is logged');
  assert.not.ok(socket.messages.some((m) => m.includes('marker=before')), 'nothing from before the first frame');
  assert.not.ok(socket.messages.some((m) => m.includes('marker=ignored')), 'the filter applies');
  socket.ws.send(JSON.stringify({}));
  const count = socket.messages.length;
  await adminRequest(ctx.node, '/native/admin/status?marker=json');
  await until(() => socket.messages.slice(count).some((m) => m.includes('marker=json')), 'JSON records arrive');
  const record = JSON.parse(socket.messages.slice(count).find((m) => m.includes('marker=json'))!);
  assert.equal(Object.keys(record).slice(0, 3), ['Message', 'Host', 'Process']);
  assert.equal(record.Request, { Method: 'GET', Target: '/native/admin/status?marker=json', Host: `${X_ADMIN}:${ctx.node.port}` });
  assert.is(record.Response.Status, 200);
  socket.ws.close();
});

test('a bad filter closes the socket with 1008 and the error', async (ctx) => {
  const socket = logSocket(ctx.node);
  await socket.opened;
  socket.ws.send(JSON.stringify({ filter: 'Severity >>= info' }));
  const closed = await socket.closed;
  assert.is(closed.code, 1008);
  assert.ok(closed.reason.length > 0);
});

test('a file logger from PUT /config receives records; changing its filter keeps the file and drops nothing', async (ctx) => {
  await putConfig(ctx.node, (c) => ({ ...c, loggers: { ...(c.loggers as object), file: { type: 'file', filename: 'logs/http.log', filter: 'Channel = http', format: '{Request.Target}', flush: true } } }));
  await adminRequest(ctx.node, '/native/admin/status?file=1');
  await putConfig(ctx.node, (c) => ({ ...c, loggers: { ...(c.loggers as object), file: { type: 'file', filename: 'logs/http.log', filter: 'Channel = http and Response.Status = 404', format: '{Request.Target}', flush: true } } }));
  await adminRequest(ctx.node, '/native/admin/status?file=2');
  await adminRequest(ctx.node, '/native/admin/missing?file=3');
  const lines = () => readFileSync(join(ctx.dir, 'node', 'logs', 'http.log'), 'utf8').split('\n').filter((l) => l.includes('file='));
  await until(() => lines().length >= 2, 'both records are written');
  assert.equal(lines(), ['/native/admin/status?file=1', '/native/admin/missing?file=3']);
});

test('a restart closes log sockets with 1012', async (ctx) => {
  const socket = logSocket(ctx.node);
  await socket.opened;
  socket.ws.send(JSON.stringify({ filter: 'Severity >= critical' }));
  const r = await adminRequest(ctx.node, '/shutdown', { json: { restart: true, soft: true } });
  assert.is(r.status, 200);
  assert.is((await socket.closed).code, 1012);
});

test.run();
