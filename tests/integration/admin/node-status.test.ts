// The status values a node works out itself (docs/http.md §7) on real node processes: `startup` while
// it initialises (it listens before it boots, answering the status, and 503 to everything else)
// and `slow` when the configured database cache could not be locked in memory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { X_ADMIN, adminRequest as admin } from '../../lib/admin-requests.js';
import { testBundleFile } from '../../lib/booted-node.js';
import { configuredNodeDir, startNode, type RunningNode } from '../../lib/node-process.js';
import { testBundle } from '../../lib/test-bundle.js';

interface Ctx { dir: string }
const test = suite<Ctx>('node status');

interface Reply { status: number; retryAfter: string | undefined; body: string }

/** GET requests for `paths` on x-admin as one write, the last closing the connection. */
function pipelinedRequests(paths: readonly string[]): string {
  return paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: ${X_ADMIN}\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('');
}

/** The replies in `raw` (everything a connection received), each with its Content-Length body. */
function parseReplies(raw: Buffer): Reply[] {
  const replies: Reply[] = [];
  for (let at = 0; at < raw.length;) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    const head = raw.subarray(at, headEnd).toString();
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
    const bodyStart = headEnd + 4;
    const bodyEnd = bodyStart + Number(header('content-length'));
    replies.push({ status: Number(head.split(' ')[1]), retryAfter: header('retry-after'), body: raw.subarray(bodyStart, bodyEnd).toString() });
    at = bodyEnd;
  }
  return replies;
}

/**
 * The first replies to GET `paths` on x-admin, pipelined in one write on one connection to the
 * node's local socket, sent again until the socket takes connections. The node reads them
 * together and answers them in one turn of its event loop: they tell of one moment of its life.
 */
async function firstReplies(socketPath: string, paths: readonly string[]): Promise<Reply[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return parseReplies(await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = connect(socketPath, () => socket.write(pipelinedRequests(paths)));
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks)));
        socket.on('error', reject);
      }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw err;
      if (Date.now() > deadline) throw new Error(`${socketPath} took no connection`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** A node on `<dir>/<name>` whose config.json starts as `config`. */
function startConfiguredNode(dir: string, name: string, config: object): Promise<RunningNode> {
  return startNode(configuredNodeDir(dir, name, config));
}

const statusOf = async (node: RunningNode): Promise<unknown> => (await admin(node, '/native/admin/status')).json();

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-status-'));
});

test.after((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('while it boots a bundle the node answers the status with startup, and 503 to the rest', async (ctx) => {
  const bundle = testBundleFile(ctx.dir);
  writeFileSync(bundle, await testBundle());
  const socket = join(ctx.dir, 'boot.sock');
  // Asked from before the node process exists: the first replies are the earliest it gives.
  const started = startNode(join(ctx.dir, 'boot'), ['-p', 'prod', '--boot', bundle, '-l', socket]);
  started.catch(() => undefined);
  const [config, status] = await firstReplies(socket, ['/config', '/native/admin/status']);
  const node = await started;
  try {
    assert.is(status!.status, 200);
    const values = JSON.parse(status!.body) as string[];
    assert.ok(values[0] === 'startup' && values.slice(1).every((v) => v === 'needgenesis'), status!.body);
    assert.equal(config, { status: 503, retryAfter: '1', body: 'The node is starting up; try again in a moment.' });
    // Started (startNode saw it report its listeners): healthy, and everything answers.
    assert.equal(await statusOf(node), []);
    assert.is((await admin(node, '/config')).status, 200);
  } finally {
    await node.stop();
  }
});

test('a database cache larger than the RAM available is slow; the size is a config field', async (ctx) => {
  // 1 PiB, as a decimal string (64-bit figures may come as strings, docs/http.md §6).
  const node = await startConfiguredNode(ctx.dir, 'big-cache', { database_cache_size: String(2 ** 50) });
  try {
    assert.equal(await statusOf(node), ['slow', 'needgenesis']);
    const config = (await admin(node, '/config')).json() as Record<string, unknown>;
    assert.is(config.database_cache_size, 2 ** 50);
    const refused = await admin(node, '/config', { method: 'PUT', json: { ...config, database_cache_size: -1 } });
    assert.is(refused.status, 400);
    assert.match(refused.text(), /^database_cache_size: /);
  } finally {
    await node.stop();
  }
});

test('a database cache the kernel lets the node lock is not slow', async (ctx) => {
  // One page: within MemAvailable, and within any RLIMIT_MEMLOCK a Linux system starts with.
  const node = await startConfiguredNode(ctx.dir, 'small-cache', { database_cache_size: 4096 });
  try {
    assert.equal(await statusOf(node), ['needgenesis']);
  } finally {
    await node.stop();
  }
});

test.run();
