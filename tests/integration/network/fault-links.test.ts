// The faults the chaos runs put on links (tests/lib/link-proxy.ts, tests/lib/net-namespaces.ts),
// on plain TCP connections: the proxy keeps the order of a connection's bytes under a delay, holds
// a stalled direction's bytes (the other flows) and delivers them when the stall ends, resets
// connections when cut and new ones while refusing; a kernel drop rule loses what a program in a
// namespace sends, silently, and once the rule goes TCP delivers every byte, in order. And what a
// schedule makes of the links (tests/lib/chaos): the same seed draws the same schedule, and
// overlapping faults add up.
import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CLEAR_LINK, LinkProxy } from '../../lib/link-proxy.js';
import { NodeNamespaces } from '../../lib/net-namespaces.js';
import { linkState } from '../../lib/chaos/link-faults.js';
import { drawSchedule } from '../../lib/chaos/schedule.js';
import { waitUntil } from '../../lib/node-network.js';

/** A server that keeps what each connection sends and answers every chunk with `pong`. */
async function recordingServer(host: string): Promise<{ server: Server; port: number; received: () => string; sockets: Socket[] }> {
  let text = '';
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      text += chunk.toString();
      socket.write('pong');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as { port: number }).port, received: () => text, sockets };
}

/** A client connection through `proxy`, with what came back so far and how it ended. */
async function client(proxy: LinkProxy) {
  const socket = connect({ host: '127.0.0.1', port: proxy.port });
  let back = '';
  let ended: string | undefined;
  socket.on('data', (chunk) => (back += chunk.toString()));
  socket.on('error', (err: NodeJS.ErrnoException) => (ended = err.code ?? err.message));
  socket.on('close', () => (ended ??= 'closed'));
  // A refused connection may be reset before it reports being connected.
  await new Promise((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', resolve);
  });
  return { socket, back: () => back, ended: () => ended };
}

/** Lets the event loop turn `times` times (a bound on "nothing came": several round trips on loopback). */
async function turns(times = 20): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

interface Context { target: Awaited<ReturnType<typeof recordingServer>>; proxy: LinkProxy }
const proxy = suite<Context>('the link proxy');

proxy.before.each(async (ctx) => {
  ctx.target = await recordingServer('127.0.0.1');
  ctx.proxy = await LinkProxy.start({ listenHost: '127.0.0.1', targetHost: '127.0.0.1', targetPort: ctx.target.port });
});

proxy.after.each(async (ctx) => {
  await ctx.proxy.close();
  await new Promise((resolve) => ctx.target.server.close(resolve));
  for (const s of ctx.target.sockets) s.destroy();
});

proxy('a delayed direction keeps the order of its bytes; a shorter delay does not overtake a longer one', async ({ target, proxy: p }) => {
  const c = await client(p);
  c.socket.write('start,');
  await waitUntil('the connection through', async () => target.received() === 'start,');
  p.set({ ...CLEAR_LINK, delayMs: { forward: 300, backward: 0 } });
  c.socket.write('one,');
  // The proxy reads it under the long delay; the next chunk comes under none.
  await turns(4);
  p.set(CLEAR_LINK);
  c.socket.write('two,');
  await waitUntil('both chunks', async () => target.received().length === 'start,one,two,'.length);
  assert.is(target.received(), 'start,one,two,');
  c.socket.destroy();
});

proxy('a stalled direction holds its bytes while the other flows, and delivers them when the stall ends', async ({ target, proxy: p }) => {
  const c = await client(p);
  c.socket.write('first,');
  await waitUntil('the first chunk', async () => target.received() === 'first,' && c.back() === 'pong');
  p.set({ ...CLEAR_LINK, stalled: { forward: true, backward: false } });
  c.socket.write('held,');
  target.sockets[0]!.write('pong');
  await waitUntil('the backward direction flows', async () => c.back() === 'pongpong');
  await turns();
  assert.is(target.received(), 'first,', 'nothing passed the stalled direction');
  p.set(CLEAR_LINK);
  await waitUntil('the held chunk', async () => target.received() === 'first,held,');
  c.socket.destroy();
});

proxy('a cut resets the open connections; while refusing, new ones are reset at once', async ({ proxy: p }) => {
  const open = await client(p);
  p.cut();
  await waitUntil('the open connection reset', async () => open.ended() === 'ECONNRESET');
  p.set({ ...CLEAR_LINK, refused: true });
  const refused = await client(p);
  await waitUntil('the new connection reset', async () => refused.ended() === 'ECONNRESET');
  p.set(CLEAR_LINK);
  const again = await client(p);
  again.socket.write('x');
  await waitUntil('a new connection passes again', async () => again.back() === 'pong');
  again.socket.destroy();
});

proxy.run();

const kernel = suite('kernel loss in a node namespace');

kernel('a drop rule loses what the node sends on that link, silently; once it goes, TCP delivers every byte in order', async () => {
  const namespaces = NodeNamespaces.create(2);
  const target = await recordingServer(namespaces.linkAddress(0, 1));
  // A program in node 0's namespace sends a numbered line every 20 ms to node 0's address for its link to node 1.
  const script = `const s = require('net').connect(${target.port}, '${namespaces.linkAddress(0, 1)}', () => { let i = 0; setInterval(() => s.write(i++ + '\\n'), 20); }); s.on('error', (e) => { console.error(e.message); process.exit(1); });`;
  const sender = spawn(namespaces.namespaces[0]!.launcher[0]!, [...namespaces.namespaces[0]!.launcher.slice(1), process.execPath, '-e', script], { stdio: 'ignore' });
  const lines = () => target.received().split('\n').filter(Boolean).map(Number);
  try {
    await waitUntil('lines arrive', async () => lines().length >= 5);
    namespaces.setDropped(0, 1, true);
    await turns(10);
    const before = lines().length;
    await turns(40);
    assert.is(lines().length, before, 'nothing arrived while the rule was there');
    namespaces.setDropped(0, 1, false);
    await waitUntil('lines arrive again', async () => lines().length > before + 5, 20_000);
    assert.equal(lines(), lines().map((_, i) => i), 'every line, in order: the lost packets were sent again');
  } finally {
    sender.kill();
    await new Promise((resolve) => sender.once('exit', resolve));
    await new Promise((resolve) => target.server.close(resolve));
    for (const s of target.sockets) s.destroy();
    namespaces.destroy();
  }
});

kernel.run();

const schedules = suite('chaos schedules');

schedules('a seed draws the same schedule every time; its faults lie in the window, on its links and producers', () => {
  for (let seed = 1; seed <= 50; seed++) {
    const schedule = drawSchedule(seed, { windowMs: 8000 });
    assert.equal(drawSchedule(seed, { windowMs: 8000 }), schedule, `seed ${seed}`);
    assert.ok(schedule.producers >= (schedule.algorithm === 'bft' ? 4 : 3) && schedule.producers <= 5);
    for (const fault of schedule.faults) {
      assert.ok(fault.at >= 0 && fault.at + fault.duration <= schedule.healAt, `seed ${seed}: ${JSON.stringify(fault)}`);
      if ('link' in fault) assert.ok(fault.link < schedule.links.length);
    }
  }
  assert.not.equal(drawSchedule(1, { windowMs: 8000 }), drawSchedule(2, { windowMs: 8000 }));
});

schedules('overlapping faults add up: the longest delay, a stall, a refusal, every kernel loss', () => {
  const links = [[1, 0], [2, 0], [2, 1]] as const;
  const state = linkState(links, [
    { kind: 'delay', link: 0, forwardMs: 100, backwardMs: 700 },
    { kind: 'delay', link: 0, forwardMs: 400, backwardMs: 0 },
    { kind: 'one-way', link: 1, way: 'backward', via: 'proxy' },
    { kind: 'one-way', link: 2, way: 'forward', via: 'kernel' },
    { kind: 'isolate', node: 0, via: 'proxy' },
    { kind: 'split', side: [2], via: 'kernel' },
  ]);
  assert.equal(state.proxies[0]!.delayMs, { forward: 400, backward: 700 });
  assert.equal(state.proxies[1]!.stalled, { forward: false, backward: true });
  assert.equal(state.proxies.map((p) => p.refused), [true, true, false]);
  // p2 dials both: the one-way loss is p2's packets to p1; the split loses both ways on p2's links.
  assert.equal([...state.kernelDrops].sort(), ['0>2', '1>2', '2>0', '2>1']);
});

schedules.run();
