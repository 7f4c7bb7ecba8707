// PUT /config refuses what would take a real node process off the air (no hosts, no listener, a
// listener that cannot open, TLS files that cannot serve): a 400 naming the field, after which the
// node still serves x-admin, /config and services, and its config.json is byte for byte the same.
// A missing http_timeout means no timeout (docs/administration.md §2).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { HttpReply } from '../../../runtime/cli/client.js';
import { X_ADMIN, adminRequest as admin, hostRequest } from '../../lib/admin-requests.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { makeSelfSignedCertificate, type TlsFiles } from '../../lib/tls-certificate.js';

interface Ctx { dir: string; node: RunningNode; tls: TlsFiles; other: TlsFiles }
const test = suite<Ctx>('config refusals');

const jsonOf = (r: HttpReply) => r.json() as any;
const configFile = (ctx: Ctx) => join(ctx.dir, 'node', 'config.json');

/** Asserts the node answers x-admin's app, /config and a service's endpoint. */
async function assertServing(ctx: Ctx, config: unknown): Promise<void> {
  assert.is((await hostRequest(ctx.node, X_ADMIN, '/')).status, 200, 'x-admin app');
  assert.equal(jsonOf(await admin(ctx.node, '/config')), config, 'the running configuration');
  const service = await hostRequest(ctx.node, 'accounts.tsibase.localhost', '/common/thisservice');
  assert.is(service.status, 200, 'a service');
  assert.is(service.json(), 'accounts');
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-config-'));
  ctx.tls = makeSelfSignedCertificate(ctx.dir);
  ctx.other = makeSelfSignedCertificate(ctx.dir, 'other');
  writeFileSync(join(ctx.dir, 'not-pem.crt'), 'this is no certificate\n');
  ctx.node = await startBootedNode(ctx.dir);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a configuration that leaves the node unreachable or unstartable is 400 naming the field; nothing changes', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  const stored = readFileSync(configFile(ctx), 'utf8');
  const http = config.listen[0];
  const missing = join(ctx.dir, 'missing.crt');
  const refused: [unknown, string, string][] = [
    [{ ...config, hosts: [] }, 'hosts:', 'host name'],
    [{ ...config, listen: [] }, 'listen:', 'interface'],
    [{ ...config, listen: [{ ...http, address: '192.0.2.1' }] }, 'listen[0].address:', '192.0.2.1'],
    [{ ...config, listen: [{ ...http, port: 8123 }, { ...http, port: 8123 }] }, 'listen[1]:', 'listen[0]'],
    [{ ...config, listen: [http, { protocol: 'local', path: join(ctx.dir, 'no-dir', 'node.sock') }] }, 'listen[1].path:', 'no-dir'],
    [{ ...config, listen: [{ ...http, protocol: 'https' }] }, 'tls:', 'https listener'],
    [{ ...config, tls: { certificate: missing, key: ctx.tls.key } }, 'tls.certificate:', missing],
    [{ ...config, tls: { certificate: ctx.tls.certificate, key: join(ctx.dir, 'missing.key') } }, 'tls.key:', 'missing.key'],
    [{ ...config, tls: { trustfiles: [ctx.tls.certificate, missing] } }, 'tls.trustfiles[1]:', missing],
    [{ ...config, tls: { certificate: ctx.tls.certificate, key: ctx.other.key } }, 'tls:', 'no TLS context'],
    [{ ...config, tls: { certificate: join(ctx.dir, 'not-pem.crt'), key: ctx.tls.key } }, 'tls:', 'no TLS context'],
    [{ ...config, service_threads: -1 }, 'service_threads:', 'whole number from 0 to 1024'],
    [{ ...config, service_threads: 'four' }, 'service_threads:', '"four"'],
  ];
  for (const [value, field, problem] of refused) {
    const r = await admin(ctx.node, '/config', { method: 'PUT', json: value });
    assert.is(r.status, 400, field);
    assert.ok(r.text().startsWith(field), r.text());
    assert.ok(r.text().includes(problem), r.text());
    assert.is(readFileSync(configFile(ctx), 'utf8'), stored, `the file after ${field}`);
    await assertServing(ctx, config);
  }
});

test('an https listener with readable TLS files that match is accepted', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  const next = { ...config, listen: [...config.listen, { protocol: 'https', address: '127.0.0.1', port: 0 }], tls: { certificate: ctx.tls.certificate, key: ctx.tls.key } };
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: next })).status, 200);
  assert.equal(JSON.parse(readFileSync(configFile(ctx), 'utf8')), next);
  await assertServing(ctx, next);
});

test('service_threads is kept as a number (a decimal string is taken) and applies at the next start', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: { ...config, service_threads: '2' } })).status, 200);
  assert.is(jsonOf(await admin(ctx.node, '/config')).service_threads, 2);
  assert.is(JSON.parse(readFileSync(configFile(ctx), 'utf8')).service_threads, 2);
  // A configuration without it keeps the one before.
  const { service_threads: _, ...without } = config;
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: without })).status, 200);
  assert.is(jsonOf(await admin(ctx.node, '/config')).service_threads, 2);
});

test('a configuration without http_timeout has none: idle connections stay open, no Keep-Alive timeout', async (ctx) => {
  const config = jsonOf(await admin(ctx.node, '/config'));
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: { ...config, http_timeout: 1_000_000 } })).status, 200);
  const { http_timeout: _, ...without } = config;
  assert.is((await admin(ctx.node, '/config', { method: 'PUT', json: without })).status, 200);
  assert.is(jsonOf(await admin(ctx.node, '/config')).http_timeout, null);
  assert.is(JSON.parse(readFileSync(configFile(ctx), 'utf8')).http_timeout, null);
  // The connection is still open after the old timeout of one second has passed twice.
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(ctx.node.port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString();
      if (!received.includes('\r\n\r\n')) return;
      setTimeout(() => {
        assert.is(socket.destroyed || socket.readyState !== 'open', false, 'the idle connection stayed open');
        socket.destroy();
        resolve(received);
      }, 2_000);
    });
    socket.on('error', reject);
    socket.write(`GET /native/admin/status HTTP/1.1\r\nHost: ${X_ADMIN}\r\n\r\n`);
  });
  assert.match(reply, 'HTTP/1.1 200 OK');
  assert.not.match(reply, /Keep-Alive: timeout/i);
});

test.run();
