// The HTTP/1.1 layer over real sockets: pipelined requests answered in order (each reply only
// after the ones before it, however the handlers finish), bodies read whole, 100-continue,
// persistence by version and Connection, refusals that close the connection, HEAD, upgrades,
// and idle connections closed after the keep-alive time.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, createServer as createTlsServer } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConnectionLimit, WireServer, type WireRequest, type WireResponse } from '../../../../../runtime/http/wire/index.js';
import { makeSelfSignedCertificate } from '../../../../lib/tls-certificate.js';

interface Ctx { server: WireServer; port: number }
const test = suite<Ctx>('HTTP/1.1 wire layer');

/** Echoes the request as JSON; `/later/<ms>` answers after that many ms, `/fail` with a bad header. */
function handle(req: WireRequest, res: WireResponse): void {
  const echo = () => res.end(200, { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({
    method: req.method, url: req.url, host: req.headers.host, body: Buffer.from(req.body).toString('latin1'),
  })));
  const later = /^\/later\/(\d+)(\?.*)?$/.exec(req.url);
  if (later) setTimeout(echo, Number(later[1]));
  else if (req.url === '/close') res.end(200, { Connection: 'close' }, Buffer.from('bye'));
  else echo();
}

test.before(async (ctx) => {
  ctx.server = new WireServer(createServer(), {
    request: handle,
    upgrade: (req, socket) => {
      if (req.url !== '/taken') return false;
      socket.end('taken');
      return true;
    },
  }, 1024);
  ctx.server.keepAliveMs = 1000;
  ctx.port = (await ctx.server.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port;
});

test.after(async (ctx) => {
  await ctx.server.close(true);
});

interface Reply { status: number; headers: Record<string, string>; body: string }

/** Splits what a connection received into replies (each framed by its Content-Length). */
function replies(received: string): Reply[] {
  const out: Reply[] = [];
  let rest = received;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete reply: ${JSON.stringify(rest)}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 2);
    const status = Number(statusLine!.split(' ')[1]);
    const length = status === 100 ? 0 : Number(headers['content-length'] ?? 0);
    out.push({ status, headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** Sends `parts` (in separate writes, `gapMs` apart) and returns all received until the server closes or `idleMs` pass quietly. */
async function exchange(port: number, parts: string[], options: { idleMs?: number; gapMs?: number } = {}): Promise<{ received: string; closed: boolean }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  let quiet: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    const wait = () => {
      clearTimeout(quiet);
      quiet = setTimeout(resolve, options.idleMs ?? 300);
    };
    socket.on('data', (d) => {
      received += d.toString('latin1');
      wait();
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(quiet);
      resolve();
    });
    socket.on('error', () => {});
    wait();
  });
  for (const part of parts) {
    socket.write(Buffer.from(part, 'latin1'));
    if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
  }
  await done;
  socket.destroy();
  return { received, closed };
}

const get = (path: string, fields = 'Host: h\r\n') => `GET ${path} HTTP/1.1\r\n${fields}\r\n`;

test('pipelined requests are answered in request order, however their handlers finish', async (ctx) => {
  const { received, closed } = await exchange(ctx.port, [get('/later/60') + get('/later/0') + get('/now') + get('/later/30')]);
  assert.not.ok(closed);
  const urls = replies(received).map((r) => JSON.parse(r.body).url);
  assert.equal(urls, ['/later/60', '/later/0', '/now', '/later/30']);
  for (const r of replies(received)) {
    assert.is(r.headers.connection, 'keep-alive');
    assert.is(r.headers['keep-alive'], 'timeout=1');
    assert.ok(r.headers.date);
  }
});

test('more pipelined requests than are taken at once (reading pauses) are all answered, in order', async (ctx) => {
  const paths = Array.from({ length: 150 }, (_, i) => `/later/${i % 3 === 0 ? 20 : 0}?n=${i}`);
  const { received } = await exchange(ctx.port, [paths.map((p) => get(p)).join('')], { idleMs: 500 });
  assert.equal(replies(received).map((r) => JSON.parse(r.body).url), paths.map((p) => p));
});

test('bodies are read whole: Content-Length and chunked, split at every byte', async (ctx) => {
  const sized = 'POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world';
  const chunked = 'PUT /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n';
  const wire = sized + chunked;
  const { received } = await exchange(ctx.port, [...wire], { gapMs: 0 });
  assert.equal(replies(received).map((r) => JSON.parse(r.body)), [
    { method: 'POST', url: '/a', host: 'h', body: 'hello world' },
    { method: 'PUT', url: '/b', host: 'h', body: 'hello world' },
  ]);
});

test('Expect: 100-continue gets a 100 before the body is sent; another expectation is 417', async (ctx) => {
  const { received } = await exchange(ctx.port, ['POST /c HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n', 'ok'], { gapMs: 100 });
  const [cont, answer] = replies(received);
  assert.is(cont!.status, 100);
  assert.is(JSON.parse(answer!.body).body, 'ok');
  const refused = await exchange(ctx.port, [get('/d', 'Host: h\r\nExpect: magic\r\n')]);
  assert.is(replies(refused.received)[0]!.status, 417);
  assert.ok(refused.closed);
});

test('HTTP/1.0 closes after its reply unless it asks for keep-alive; Connection: close closes', async (ctx) => {
  const once = await exchange(ctx.port, ['GET /e HTTP/1.0\r\n\r\n' + get('/ignored')]);
  assert.equal(replies(once.received).map((r) => [r.status, r.headers.connection]), [[200, 'close']]);
  assert.ok(once.closed);
  const kept = await exchange(ctx.port, ['GET /f HTTP/1.0\r\nConnection: keep-alive\r\n\r\n']);
  assert.is(replies(kept.received)[0]!.headers.connection, 'keep-alive');
  assert.not.ok(kept.closed);
  const asked = await exchange(ctx.port, [get('/g', 'Host: h\r\nConnection: close\r\n') + get('/ignored')]);
  assert.is(replies(asked.received).length, 1);
  assert.ok(asked.closed);
});

test('a reply with Connection: close closes the connection; later pipelined requests get nothing', async (ctx) => {
  const { received, closed } = await exchange(ctx.port, [get('/first') + get('/close') + get('/after')]);
  assert.equal(replies(received).map((r) => [r.status, r.headers.connection, r.body.startsWith('{') ? 'json' : r.body]), [
    [200, 'keep-alive', 'json'], [200, 'close', 'bye'],
  ]);
  assert.ok(closed);
});

test('refusals come after the replies due before them, as text/plain, and close the connection', async (ctx) => {
  const cases: [string, number, string][] = [
    ['GET / HTTP/1.1\r\n\r\n', 400, 'missing Host header'],
    ['GET / HTTP/2.0\r\nHost: h\r\n\r\n', 505, 'HTTP/2 is not supported'],
    ['BAD REQUEST LINE HERE\r\n\r\n', 400, 'malformed request line'],
    [`GET / HTTP/1.1\r\nHost: h\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, `request head exceeds ${16 * 1024} bytes`],
    [`GET / HTTP/1.1\r\nHost: h\r\nX-Big: ${'a'.repeat(17 * 1024)}`, 431, `request head exceeds ${16 * 1024} bytes`],
    ['POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1025\r\n\r\n', 413, 'request body exceeds 1024 bytes'],
  ];
  for (const [wire, status, message] of cases) {
    const { received, closed } = await exchange(ctx.port, [get('/before') + wire]);
    const [before, refused] = replies(received);
    assert.is(JSON.parse(before!.body).url, '/before');
    assert.equal([refused!.status, refused!.headers['content-type'], refused!.body, refused!.headers.connection], [status, 'text/plain', message, 'close'], message);
    assert.ok(closed, message);
  }
});

test('HEAD replies say the length of what GET would get, with no body', async (ctx) => {
  const { received } = await exchange(ctx.port, ['HEAD /h HTTP/1.1\r\nHost: h\r\n\r\n' + get('/next')]);
  const headEnd = received.indexOf('\r\n\r\n') + 4;
  const [head] = replies(received.slice(0, headEnd));
  assert.is(Number(head!.headers['content-length']), JSON.stringify({ method: 'HEAD', url: '/h', host: 'h', body: '' }).length);
  // What follows the HEAD reply's head is the next reply.
  assert.is(JSON.parse(replies(received.slice(headEnd))[0]!.body).url, '/next');
});

test('reply header fields that would break the head are refused before anything is written', async () => {
  const server = new WireServer(createServer(), {
    request: (_req, res) => {
      assert.throws(() => res.end(200, { 'X-A': 'a\r\nInjected: yes' }, Buffer.from('x')), /Invalid character/);
      assert.throws(() => res.end(200, { 'Bad Name': 'v' }, Buffer.from('x')), /must be a valid HTTP token/);
      res.end(200, { 'Content-Length': '99', 'X-A': 'fine' }, Buffer.from('x'));
    },
    upgrade: () => false,
  }, 1024);
  const port = (await server.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port;
  try {
    const [r] = replies((await exchange(port, [get('/')])).received);
    assert.equal([r!.status, r!.headers['x-a'], r!.headers['content-length'], r!.body, r!.headers.injected], [200, 'fine', '1', 'x', undefined]);
  } finally {
    await server.close(true);
  }
});

test('upgrades: taken ones get the socket; others are a 404 that closes', async (ctx) => {
  const upgrade = (path: string) => `GET ${path} HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;
  assert.equal(await exchange(ctx.port, [upgrade('/taken')]), { received: 'taken', closed: true });
  const refused = await exchange(ctx.port, [upgrade('/other')]);
  assert.is(replies(refused.received)[0]!.status, 404);
  assert.ok(refused.closed);
});

test('a connection idle past the keep-alive time is closed; one in use is not', async (ctx) => {
  const started = Date.now();
  const idle = await exchange(ctx.port, [get('/i')], { idleMs: 3000 });
  assert.ok(idle.closed);
  assert.ok(Date.now() - started >= 1000, 'not before the keep-alive time');
  const busy = await exchange(ctx.port, [get('/j'), get('/k'), get('/l'), get('/m'), get('/n')], { gapMs: 400, idleMs: 100 });
  assert.is(replies(busy.received).length, 5);
  assert.not.ok(busy.closed);
});

test('a request sent before the keep-alive time ends is answered even when the node reads it only after that time', async (ctx) => {
  const socket: Socket = connect(ctx.port, '127.0.0.1');
  let received = '';
  let closed = false;
  const arrived = (count: number) => new Promise<void>((resolve) => {
    const check = () => {
      if (closed || (received.length > 0 && replies(received).length >= count)) resolve();
      else setTimeout(check, 10);
    };
    check();
  });
  socket.on('data', (d) => { received += d.toString('latin1'); });
  socket.on('close', () => { closed = true; });
  socket.on('error', () => {});
  socket.write(get('/first'));
  await arrived(1);
  // The second request reaches the node's socket at once; then the event loop is held past the
  // keep-alive time (1 s) and its sweep (250 ms), as a busy node's is, before it reads it.
  socket.write(get('/second'));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1600);
  await arrived(2);
  assert.not.ok(closed, 'the connection was closed under the request');
  assert.equal(replies(received).map((r) => JSON.parse(r.body).url), ['/first', '/second']);
  socket.destroy();
});

test('closing the listener: an idle connection closes at once, a busy one after its reply, which says close', async () => {
  const server = new WireServer(createServer(), { request: handle, upgrade: () => false }, 1024);
  const port = (await server.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port;
  const idle = exchange(port, [get('/idle')], { idleMs: 5000 });
  const busy = exchange(port, [get('/later/300')], { idleMs: 5000 });
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await server.close(false);
  assert.ok(Date.now() - started >= 150, 'the busy connection was waited for');
  const [idleDone, busyDone] = await Promise.all([idle, busy]);
  assert.ok(idleDone.closed);
  assert.equal(replies(idleDone.received).map((r) => r.headers.connection), ['keep-alive']);
  assert.ok(busyDone.closed);
  assert.equal(replies(busyDone.received).map((r) => [JSON.parse(r.body).url, r.headers.connection]), [['/later/300', 'close']]);
});

test('a chunked body dripped in gets 408 by its deadline however often bytes come; a prompt one is read', async () => {
  const server = new WireServer(createServer(), { request: handle, upgrade: () => false }, 1024);
  server.requestTimeoutMs = 300;
  const port = (await server.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port;
  try {
    const start = 'POST /slow HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n';
    const slow = await exchange(port, [start, ...Array.from({ length: 60 }, () => '1\r\nx\r\n')], { gapMs: 50, idleMs: 2000 });
    assert.ok(slow.closed);
    const [refusal] = replies(slow.received);
    assert.is(refusal!.status, 408);
    // 300 ms plus 1 s per 64 KiB of a body whose size is not known: the request timeout alone.
    assert.match(refusal!.body, /the request body did not arrive within 0\.3 s/);
    const prompt = await exchange(port, [`${start}5\r\nhello\r\n0\r\n\r\n`]);
    assert.is(JSON.parse(replies(prompt.received)[0]!.body).body, 'hello');
  } finally {
    await server.close(true);
  }
});

test('listeners sharing a limit: past it a connection gets 503 and closes; a closed one makes room', async () => {
  let refusals = 0;
  const limit = new ConnectionLimit(2, () => refusals++);
  const servers = [0, 1].map(() => new WireServer(createServer(), { request: handle, upgrade: () => false }, 1024, limit));
  const ports = await Promise.all(servers.map(async (s) => (await s.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port));
  const open = (port: number) => new Promise<Socket>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });
  try {
    const held = [await open(ports[0]!), await open(ports[1]!)];
    // The server counts a connection in when it sees it: a request answered on each makes sure it has.
    for (const socket of held) {
      const answered = new Promise((resolve) => socket.once('data', resolve));
      socket.write(get('/held'));
      await answered;
    }
    const refused = await exchange(ports[0]!, [get('/refused')]);
    assert.ok(refused.closed);
    const [reply] = replies(refused.received);
    assert.is(reply!.status, 503);
    assert.is(reply!.headers['content-type'], 'text/plain');
    assert.is(reply!.headers.connection, 'close');
    assert.is(reply!.body, 'the node has too many open connections; try again later\n');
    assert.is(refusals, 1);
    assert.is(limit.openConnections, 2);
    const closed = new Promise((resolve) => held[1]!.once('close', resolve));
    held[1]!.destroy();
    await closed;
    let served: Reply | undefined;
    for (let i = 0; i < 50 && served?.status !== 200; i++) [served] = replies((await exchange(ports[1]!, [get('/room')])).received);
    assert.is(served!.status, 200);
    held[0]!.destroy();
  } finally {
    await Promise.all(servers.map((s) => s.close(true)));
  }
});

test('a TLS connection past the limit is dropped before its handshake; once one closes, the next is served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-wire-tls-'));
  const files = makeSelfSignedCertificate(dir);
  const limit = new ConnectionLimit(1, () => {});
  const server = new WireServer(createTlsServer({ cert: readFileSync(files.certificate), key: readFileSync(files.key) }), { request: handle, upgrade: () => false }, 1024, limit);
  const port = (await server.listen({ port: 0, address: '127.0.0.1' }) as AddressInfo).port;
  /** Connects; resolves to the socket once its handshake is done, or to the way it ended without one. */
  const handshake = () => new Promise<Socket | 'closed'>((resolve) => {
    const socket = tlsConnect({ port, host: '127.0.0.1', ca: files.pem, servername: 'tsibase.localhost' }, () => resolve(socket));
    socket.on('error', () => {});
    socket.once('close', () => resolve('closed'));
  });
  try {
    const held = await handshake();
    assert.ok(held !== 'closed');
    assert.is(await handshake(), 'closed');
    const gone = new Promise((resolve) => held.once('close', resolve));
    held.destroy();
    await gone;
    let next: Socket | 'closed' = 'closed';
    for (let i = 0; i < 50 && next === 'closed'; i++) next = await handshake();
    assert.ok(next !== 'closed', 'a connection was taken once the held one closed');
    const answered = new Promise<string>((resolve) => next.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
    next.write(get('/tls'));
    assert.match(await answered, /^HTTP\/1\.1 200 /);
    next.destroy();
  } finally {
    await server.close(true);
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
