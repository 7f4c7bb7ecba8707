// The admin API of docs/administration.md §4.1 on a real node process (docs/http.md §3, §4, §6, §7): every endpoint
// with good and bad input, the configuration persisted and applied, and shutdown/restart.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, generateKeyPair, privateKeyToPkcs8 } from '../../../host-api/index.js';
import { httpRequest, serviceUrl, type HttpReply } from '../../../runtime/cli/client.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { X_ADMIN, adminRequest as admin, hostRequest } from '../../lib/admin-requests.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { waitForOutput } from '../../lib/node-network.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; fresh: RunningNode }
const test = suite<Ctx>('admin API');

const jsonOf = (r: HttpReply) => r.json() as any;

/** Waits until the node answers again (after a restart). */
async function answering(node: RunningNode): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await admin(node, '/native/admin/status')).status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the node did not come back');
}

/** The node process's main thread id: a new process image has a new one. */
async function mainThread(node: RunningNode): Promise<number> {
  return jsonOf(await admin(node, '/native/admin/perf')).tasks.find((t: { group: string }) => t.group === 'main').id;
}

/** The head block number the metrics report. */
async function headBlock(node: RunningNode): Promise<number> {
  return Number(/tsibase_head_block_number (\d+)/.exec((await admin(node, '/native/admin/metrics')).text())![1]);
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-admin-'));
  ctx.node = await startBootedNode(ctx.dir);
  ctx.fresh = await startNode(join(ctx.dir, 'fresh'), ['-l', join(ctx.dir, 'admin.sock')]);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  await ctx.fresh?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('status: [] on a booted node, needgenesis without a chain', async (ctx) => {
  assert.equal(jsonOf(await admin(ctx.node, '/native/admin/status')), []);
  assert.equal(jsonOf(await admin(ctx.fresh, '/native/admin/status')), ['needgenesis']);
});

test('a local socket listener (listen protocol local) serves the node; its peers are admins', async (ctx) => {
  const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ socketPath: join(ctx.dir, 'admin.sock'), path: '/native/admin/status', headers: { host: X_ADMIN } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(reply, { status: 200, body: '["needgenesis"]' });
  const config = jsonOf(await admin(ctx.fresh, '/config'));
  assert.equal(config.listen[1], { protocol: 'local', path: join(ctx.dir, 'admin.sock') });
});

test('only admins: a forwarded foreign address gets 401 on /native/admin and on x-admin', async (ctx) => {
  const foreign = { forwarded: 'for=203.0.113.9' };
  for (const path of ['/native/admin/status', '/native/admin/keys', '/config']) {
    const r = await admin(ctx.node, path, { headers: foreign });
    assert.is(r.status, 401, path);
    assert.is(r.text(), 'Not authorized');
  }
  const put = await admin(ctx.node, '/config', { method: 'PUT', json: {}, headers: foreign });
  assert.is(put.status, 401);
});

test('a wrong method is 405 naming the allowed ones (docs/http.md §3)', async (ctx) => {
  const allowed: Record<string, string> = {
    '/native/admin/status': 'GET', '/native/admin/perf': 'GET', '/native/admin/metrics': 'GET',
    '/native/admin/keys/devices': 'GET', '/native/admin/peers': 'GET', '/native/admin/push_boot': 'POST',
    '/native/admin/keys/unlock': 'POST', '/native/admin/keys/lock': 'POST', '/native/admin/keys': 'GET, POST',
    '/native/admin/connect': 'POST', '/native/admin/disconnect': 'POST',
  };
  for (const [path, allow] of Object.entries(allowed)) {
    const method = allow.includes('GET') ? 'DELETE' : 'GET';
    const r = await admin(ctx.node, path, { method });
    assert.is(r.status, 405, path);
    assert.is(r.headers.allow, allow, path);
    assert.is(r.text(), `The resource '${path}' does not accept the method ${method}.`);
  }
  for (const path of ['/config', '/shutdown']) {
    const r = await admin(ctx.node, path, { method: 'PATCH' });
    assert.is(r.status, 405, path);
    assert.is(r.text(), `The resource '${path}' does not accept the method PATCH.\n`);
  }
  assert.is((await admin(ctx.node, '/native/admin/nothing')).status, 404);
});

test('JSON endpoints: another Content-Type is 415, malformed JSON or a wrong shape is 400', async (ctx) => {
  const posts = ['/native/admin/keys', '/native/admin/keys/unlock', '/native/admin/keys/lock', '/native/admin/connect', '/native/admin/disconnect', '/shutdown'];
  for (const path of posts) {
    const wrongType = await admin(ctx.node, path, { body: '{}', type: 'text/plain' });
    assert.is(wrongType.status, 415, path);
    assert.is(wrongType.text(), 'Content-Type must be application/json\n');
    const bad = await admin(ctx.node, path, { body: '{"unterminated' });
    assert.is(bad.status, 400, path);
    assert.match(bad.text(), 'not JSON');
  }
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', body: '[1,' })).status, 400);
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', body: '{}', type: 'text/plain' })).status, 415);
  const shape = await admin(ctx.node, '/shutdown', { json: { restart: 'yes' } });
  assert.is(shape.status, 400);
  assert.match(shape.text(), "'restart' must be true or false");
  assert.equal(jsonOf(await admin(ctx.node, '/native/admin/status')), [], 'the refused shutdown changed nothing');
});

test('GET /config has every field of docs/administration.md §2; PUT refuses a bad field by name and keeps the old config', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  for (const field of ['p2p', 'peers', 'autoconnect', 'producer', 'pkcs11-modules', 'hosts', 'listen', 'services', 'http_timeout', 'loggers']) {
    assert.ok(field in config, field);
  }
  assert.is(config.producer, 'prod');
  const refusals: [unknown, string][] = [
    [{ ...config, listen: [{ protocol: 'http', address: '127.0.0.1', port: 70000 }] }, 'listen[0].port'],
    [{ ...config, listen: [{ protocol: 'ftp' }] }, 'listen[0].protocol'],
    [{ ...config, producer: 'Not An Account' }, 'producer'],
    [{ ...config, hosts: ['bad host'] }, 'hosts[0]'],
    [{ ...config, p2p: 'on' }, 'p2p'],
    [{ ...config, http_timeout: -1 }, 'http_timeout'],
    [{ ...config, loggers: { x: { type: 'syslog' } } }, 'loggers'],
    [{ ...config, loggers: { x: { type: 'console', filter: 'Severity >=' } } }, 'loggers'],
    [{ ...config, services: [{ host: 'a.' }] }, 'services[0].root'],
    [{ ...config, listen: [{ protocol: 'https', address: '127.0.0.1', port: 0 }] }, 'tls'],
    [[1, 2], 'config'],
  ];
  for (const [value, field] of refusals) {
    const r = await admin(ctx.node, '/config', { method: 'PUT', json: value });
    assert.is(r.status, 400, field);
    assert.ok(r.text().startsWith(`${field}:`), `${field}: ${r.text()}`);
  }
  assert.equal(jsonOf(await admin(ctx.node, '/config')), config, 'unchanged');
});

test('PUT /config persists (unknown fields too), applies producer and static hosts at once, survives a restart', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  const site = join(ctx.dir, 'node', 'static-site');
  mkdirSync(site, { recursive: true });
  writeFileSync(join(site, 'index.html'), '<p>static</p>');
  const next = {
    ...config,
    peers: ['peer-one.example:8080', 'https://peer-two.example'],
    services: [{ host: 'docs.', root: 'static-site' }],
    'future-field': { kept: [1, 2, 3] },
    producer: '',
  };
  const put = await admin(ctx.node, '/config', { method: 'PUT', json: next });
  assert.is(put.status, 200, put.text());
  assert.is(put.text(), '');
  assert.equal(jsonOf(await admin(ctx.node, '/config')), next);
  assert.equal(JSON.parse(readFileSync(join(ctx.dir, 'node', 'config.json'), 'utf8')), next, 'persisted as given');

  // producer '' stops production: a transaction has no block to go to.
  const client = new ChainClient(ctx.node.api);
  const rawData = await client.packAction('example', 'increment', { name: 'n', by: '1' });
  const refused = await rejectionMessage(client.push([{ sender: 'example', service: 'example', method: 'increment', rawData }], { waitFor: 'applied' }), 'pushed');
  assert.match(refused, 'this node does not produce blocks');
  const page = await hostRequest(ctx.node, 'docs.tsibase.localhost', '/');
  assert.is(page.text(), '<p>static</p>');
  assert.is(page.headers['content-type'], 'text/html');

  // The configured peers are dialled at once; nothing answers there, so no link is up.
  await waitForOutput(ctx.node, 'peer peer-one.example:8080: dial failed');
  await waitForOutput(ctx.node, 'peer https://peer-two.example: dial failed');
  assert.equal(jsonOf(await admin(ctx.node, '/native/admin/peers')), [], 'peers lists live links only');

  const before = await mainThread(ctx.node);
  const restart = await admin(ctx.node, '/shutdown', { json: { restart: true } });
  assert.is(restart.status, 200);
  await answering(ctx.node);
  assert.is.not(await mainThread(ctx.node), before, 'a restart without soft is a new process image');
  const after = jsonOf(await admin(ctx.node, '/config'));
  const listen = [{ protocol: 'http', address: '127.0.0.1', port: Number(ctx.node.port) }];
  assert.equal(after, { ...next, producer: 'prod', listen }, 'the file survived; the command line still names the producer and the port it got');
  await client.getJson('/common/chainid');
});

test('shutdown with soft restart keeps the process; the chain and port come back', async (ctx) => {
  const before = await mainThread(ctx.node);
  const headBefore = await headBlock(ctx.node);
  assert.is((await admin(ctx.node, '/shutdown', { json: { restart: true, soft: true } })).status, 200);
  await answering(ctx.node);
  assert.is(await mainThread(ctx.node), before, 'soft keeps the process image');
  assert.equal(jsonOf(await admin(ctx.node, '/native/admin/status')), []);
  assert.ok(await headBlock(ctx.node) >= headBefore, 'the chain is still there');
});

test('peers: connect and disconnect check their bodies; connect answers once it dials; an unknown id is 404', async (ctx) => {
  const connectBad = await admin(ctx.node, '/native/admin/connect', { json: { url: 5 } });
  assert.is(connectBad.status, 400);
  assert.is((await admin(ctx.node, '/native/admin/connect', { json: { url: 'http://' } })).status, 400);
  const connectOk = await admin(ctx.node, '/native/admin/connect', { json: { url: 'http://peer.example:8080' } });
  assert.is(connectOk.status, 200, connectOk.text());
  assert.is(connectOk.text(), '');
  await waitForOutput(ctx.node, 'peer http://peer.example:8080: dial failed');
  assert.is((await admin(ctx.node, '/native/admin/disconnect', { json: { id: 'one' } })).status, 400);
  const unknown = await admin(ctx.node, '/native/admin/disconnect', { json: { id: 99 } });
  assert.is(unknown.status, 404);
  assert.match(unknown.text(), 'no peer link has id 99');
});

test('keys: generate, import (PKCS#8 hex), list; refusals; devices', async (ctx) => {
  const generated = await admin(ctx.node, '/native/admin/keys', { json: { service: 'verify-sig' } });
  assert.is(generated.status, 200, generated.text());
  const key = jsonOf(generated);
  assert.is(key.service, 'verify-sig');
  assert.match(key.rawData, /^[0-9A-F]+$/);
  const pair = generateKeyPair('secp256k1');
  const imported = jsonOf(await admin(ctx.node, '/native/admin/keys', { json: { service: 'verify-sig', rawData: bytesToHex(privateKeyToPkcs8(pair)) } }));
  assert.is(imported.rawData.toLowerCase(), bytesToHex(pair.publicKey).toLowerCase());
  const listed = jsonOf(await admin(ctx.node, '/native/admin/keys'));
  assert.equal(listed.map((k: { rawData: string }) => k.rawData), [key.rawData, imported.rawData]);
  assert.is((await admin(ctx.node, '/native/admin/keys', { json: { service: 'auth-any' } })).status, 400);
  assert.is((await admin(ctx.node, '/native/admin/keys', { json: { service: 'verify-sig', rawData: 'zz' } })).status, 400);
  assert.equal(jsonOf(await admin(ctx.node, '/native/admin/keys/devices')), []);
  assert.is((await admin(ctx.node, '/native/admin/keys/unlock', { json: { device: 'none', pin: '1' } })).status, 404);
  assert.is((await admin(ctx.node, '/native/admin/keys/lock', { json: {} })).status, 400);
});

test('perf and metrics: the seed shape, transaction counters that move, OpenMetrics text', async (ctx) => {
  const first = jsonOf(await admin(ctx.node, '/native/admin/perf'));
  assert.equal(Object.keys(first), ['timestamp', 'transactions', 'network', 'memory', 'tasks']);
  assert.equal(Object.keys(first.transactions), ['total', 'unprocessed', 'succeeded', 'failed', 'skipped']);
  assert.equal(first.network, { links: '0', blocksReceived: '0', blocksApplied: '0', blocksRefused: '0' }, 'a node on its own');
  assert.equal(Object.keys(first.memory), ['database', 'code', 'data', 'wasmMemory', 'wasmCode', 'unclassified']);
  assert.ok(first.tasks.length > 0 && first.tasks.every((t: { id: unknown }) => typeof t.id === 'number'));
  assert.ok(Number(first.memory.database) > 0, 'LMDB pages are resident');
  const bad = await httpRequest(serviceUrl(ctx.node.api, 'transact', '/push_transaction'), {
    method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([9]),
  });
  assert.is(bad.status, 500);
  const second = jsonOf(await admin(ctx.node, '/native/admin/perf'));
  assert.is(Number(second.transactions.total), Number(first.transactions.total) + 1);
  assert.is(Number(second.transactions.failed), Number(first.transactions.failed) + 1);
  assert.ok(BigInt(second.timestamp) > BigInt(first.timestamp));
  const metrics = await admin(ctx.node, '/native/admin/metrics');
  assert.is(metrics.headers['content-type'], 'application/openmetrics-text; version=1.0.0; charset=utf-8');
  const text = metrics.text();
  assert.ok(text.endsWith('# EOF\n'));
  assert.match(text, `tsibase_transactions_received_total ${second.transactions.total}\n`);
  assert.ok(await headBlock(ctx.node) >= 2);
});

test('http_timeout closes idle connections and is announced in Keep-Alive', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: { ...config, http_timeout: 1_000_000 } })).status, 200);
  const closed = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(ctx.node.port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(`GET /native/admin/status HTTP/1.1\r\nHost: ${X_ADMIN}\r\n\r\n`);
  });
  assert.match(closed, 'HTTP/1.1 200 OK');
  assert.match(closed, /Keep-Alive: timeout=1\r\n/i);
});

test('shutdown: 200, then the process exits; with force the request gets no reply', async (ctx) => {
  const exited = new Promise<number | null>((resolve) => ctx.fresh.process.once('exit', (code) => resolve(code)));
  const r = await admin(ctx.fresh, '/shutdown', { json: {} });
  assert.is(r.status, 200);
  assert.is(await exited, 0);
  const forced = await startNode(join(ctx.dir, 'fresh'));
  const forcedExit = new Promise<number | null>((resolve) => forced.process.once('exit', (code) => resolve(code)));
  let failed = false;
  try {
    await admin(forced, '/shutdown', { json: { force: true } });
  } catch {
    failed = true;
  }
  assert.ok(failed, 'the connection was dropped without a reply');
  assert.is(await forcedExit, 0);
});

test.run();
