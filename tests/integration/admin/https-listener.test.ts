// An https listener from the configuration (docs/http.md §6: `listen` protocol https with `tls`, taken
// at start) on a real node process: the node serves HTTPS with the configured certificate, and
// TLS files that cannot serve stop the start with an error naming the field.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { X_ADMIN } from '../../lib/admin-requests.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { configuredNodeDir, startNodeProcess, type RunningNode } from '../../lib/node-process.js';
import { makeSelfSignedCertificate, type TlsFiles } from '../../lib/tls-certificate.js';

interface Ctx { dir: string; tls: TlsFiles; other: TlsFiles; node: RunningNode }
const test = suite<Ctx>('https listener');

interface HttpsReply { status: number; body: string; fingerprint256: string }

/** GET `path` on x-admin over HTTPS to 127.0.0.1:`port`, trusting only `ca`. */
function httpsGet(port: string, path: string, ca: string): Promise<HttpsReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, ca, headers: { host: `${X_ADMIN}:${port}` } }, (res) => {
      const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, fingerprint256 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A node directory whose config.json has one https listener on a free port and `tls`. */
function httpsNodeDir(dir: string, name: string, tls: Record<string, unknown>): string {
  return configuredNodeDir(dir, name, { listen: [{ protocol: 'https', address: '127.0.0.1', port: 0 }], tls, http_timeout: HTTP_TIMEOUT_MS * 1000 });
}

/** The nodes' http_timeout: also the time a TLS handshake may take (docs/http.md §9). */
const HTTP_TIMEOUT_MS = 2_000;

/** The output of a node start that must fail. */
function failedStart(nodeDir: string): Promise<string> {
  return rejectionMessage(startNodeProcess(nodeDir, []).then((node) => node.stop()), 'the node started');
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-https-'));
  ctx.tls = makeSelfSignedCertificate(ctx.dir);
  // A second certificate and key, not the node's.
  ctx.other = makeSelfSignedCertificate(ctx.dir, 'other');
  // Relative TLS paths are in the node directory.
  const nodeDir = httpsNodeDir(ctx.dir, 'node', { certificate: '../node.crt', key: ctx.tls.key });
  ctx.node = await startNodeProcess(nodeDir, []);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the configured https listener serves the admin API with the configured certificate', async (ctx) => {
  assert.match(ctx.node.api, /^https:\/\/tsibase\.localhost:\d+$/);
  const status = await httpsGet(ctx.node.port, '/native/admin/status', ctx.tls.pem);
  assert.equal({ status: status.status, body: JSON.parse(status.body) }, { status: 200, body: ['needgenesis'] });
  assert.is(status.fingerprint256, ctx.tls.fingerprint256);
  const config = JSON.parse((await httpsGet(ctx.node.port, '/config', ctx.tls.pem)).body);
  assert.equal(config.listen, [{ protocol: 'https', address: '127.0.0.1', port: 0 }]);
  assert.equal(config.tls, { certificate: '../node.crt', key: ctx.tls.key });
});

test('a client that does not trust the certificate is refused by its own TLS check', async (ctx) => {
  try {
    await httpsGet(ctx.node.port, '/native/admin/status', ctx.other.pem);
  } catch (err) {
    assert.match((err as NodeJS.ErrnoException).code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
    return;
  }
  assert.unreachable('the request went through');
});

test('a missing key file stops the start; the error names tls.key and the file', async (ctx) => {
  const nodeDir = httpsNodeDir(ctx.dir, 'no-key', { certificate: ctx.tls.certificate, key: 'missing.key' });
  const output = await failedStart(nodeDir);
  assert.match(output, 'exited (1)');
  assert.match(output, `tls.key: cannot read ${join(nodeDir, 'missing.key')}`);
});

test('a key that is not the certificate\'s stops the start with an error naming tls', async (ctx) => {
  const nodeDir = httpsNodeDir(ctx.dir, 'wrong-key', { certificate: ctx.tls.certificate, key: ctx.other.key });
  const output = await failedStart(nodeDir);
  assert.match(output, 'exited (1)');
  assert.match(output, 'tls: the certificate and key make no TLS context');
});

test('a TLS handshake that is never finished is dropped by the request timeout', async (ctx) => {
  const started = Date.now();
  // One connection says nothing; the other sends the first bytes of a ClientHello and stops.
  const silent = connect(Number(ctx.node.port), '127.0.0.1');
  const partial = connect(Number(ctx.node.port), '127.0.0.1', () => partial.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])));
  const closedAt = (socket: Socket) => new Promise<number>((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve(Date.now()));
  });
  const guard = setTimeout(() => {
    silent.destroy(new Error('kept open'));
    partial.destroy(new Error('kept open'));
  }, 30_000);
  const closed = await Promise.all([closedAt(silent), closedAt(partial)]);
  clearTimeout(guard);
  // The sweep and a loaded machine may add a little; a node without the deadline keeps them 120 s.
  for (const at of closed) assert.ok(at - started <= HTTP_TIMEOUT_MS + 2_000, `dropped after ${at - started} ms`);
});

test.run();
