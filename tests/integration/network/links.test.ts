// Peer links between real node processes (docs/p2p.md "What we build" item 1, §1.1-§1.5;
// docs/administration.md §2 Peer, §4.1 rules 2-3): linking, the peers list on both ends,
// connect/disconnect, self-links and duplicates dropped, the endpoint's refusals, and
// configuration changes that apply at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { adminRequest, hostRequest } from '../../lib/admin-requests.js';
import { startNode } from '../../lib/node-process.js';
import {
  connectPeer, disconnectPeer, peersOf, startNetwork, stopNetwork, waitForOutput, waitForPeers, waitUntil, type NetworkNode,
} from '../../lib/node-network.js';

interface Ctx { dir: string; nodes: NetworkNode[] }
const test = suite<Ctx>('peer links');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-links-'));
  ctx.nodes = await startNetwork(ctx.dir, 3);
});

test.after(async (ctx) => {
  await stopNetwork(ctx.nodes ?? []);
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Closes every link of every node, and waits until none is left. */
test.before.each(async (ctx) => {
  for (const node of ctx.nodes) for (const peer of await peersOf(node)) await disconnectPeer(node, peer.id);
  for (const node of ctx.nodes) await waitForPeers(node, (peers) => peers.length === 0, 'no links');
});

const port = (node: NetworkNode) => node.port;

test('two nodes link: the dialler lists an outgoing link with its URL, the other an incoming one', async ({ nodes: [a, b] }) => {
  const reply = await connectPeer(a!, b!);
  assert.is(reply.status, 200, reply.text());
  const [out] = await waitForPeers(a!, (p) => p.length === 1, 'one link');
  assert.equal(out, { id: out!.id, endpoint: `127.0.0.1:${port(b!)}`, url: b!.url });
  assert.ok(Number.isInteger(out!.id));
  const [inc] = await waitForPeers(b!, (p) => p.length === 1, 'one link');
  assert.is(inc!.url, undefined, 'an incoming link has no URL');
  assert.match(inc!.endpoint, /^127\.0\.0\.1:\d+$/);
  assert.is.not(inc!.endpoint, `127.0.0.1:${port(a!)}`, 'the remote end of an incoming link is the dialler\'s own socket');
});

test('three nodes in a ring: each lists one incoming and one outgoing link', async ({ nodes }) => {
  for (let i = 0; i < 3; i++) assert.is((await connectPeer(nodes[i]!, nodes[(i + 1) % 3]!)).status, 200);
  for (let i = 0; i < 3; i++) {
    const peers = await waitForPeers(nodes[i]!, (p) => p.length === 2, 'two links');
    const dialled = peers.filter((p) => p.url !== undefined);
    assert.equal(dialled.map((p) => p.url), [nodes[(i + 1) % 3]!.url]);
    assert.is(peers.filter((p) => p.url === undefined).length, 1);
  }
});

test('disconnect closes the link on both ends; an unknown id is 404; bad bodies are 400', async ({ nodes: [a, b] }) => {
  await connectPeer(a!, b!);
  const [link] = await waitForPeers(a!, (p) => p.length === 1, 'one link');
  await waitForPeers(b!, (p) => p.length === 1, 'one link');
  const unknown = await disconnectPeer(a!, link!.id + 1000);
  assert.is(unknown.status, 404);
  assert.match(unknown.text(), `no peer link has id ${link!.id + 1000}`);
  assert.is((await disconnectPeer(a!, 'one')).status, 400);
  assert.is((await adminRequest(a!, '/native/admin/connect', { json: { url: 5 } })).status, 400);
  assert.is((await adminRequest(a!, '/native/admin/connect', { json: { url: 'http://' } })).status, 400);
  assert.is((await adminRequest(a!, '/native/admin/connect', { body: '{"url":"x"}', type: 'text/plain' })).status, 415);
  assert.is((await disconnectPeer(a!, link!.id)).status, 200);
  await waitForPeers(a!, (p) => p.length === 0, 'no links');
  await waitForPeers(b!, (p) => p.length === 0, 'no links');
  assert.is((await disconnectPeer(a!, link!.id)).status, 404, 'gone');
});

test('a peer URL under localhost, as the README writes them, is dialled on loopback', async ({ nodes: [a, b] }) => {
  const url = `http://tsibase.localhost:${port(b!)}`;
  assert.is((await connectPeer(a!, url)).status, 200);
  const [out] = await waitForPeers(a!, (p) => p.length === 1, 'the link to tsibase.localhost');
  assert.equal(out, { id: out!.id, endpoint: `tsibase.localhost:${port(b!)}`, url });
  await waitForPeers(b!, (p) => p.length === 1, 'the incoming link');
});

test('a link to the node itself is dropped', async ({ nodes: [a] }) => {
  assert.is((await connectPeer(a!, a!)).status, 200);
  await waitForOutput(a!, 'is down: a link to this node itself');
  assert.equal(await peersOf(a!), []);
});

test('a->b plus b->a ends with one link; each end keeps the URL it dialled', async ({ nodes: [a, b] }) => {
  const duplicates = () => (a!.output() + b!.output()).match(/a duplicate of link \d+/g)?.length ?? 0;
  const before = duplicates();
  await connectPeer(a!, b!);
  await waitForPeers(a!, (p) => p.length === 1, 'one link');
  await connectPeer(b!, a!);
  await waitUntil('a duplicate dropped', async () => duplicates() > before);
  const [onA] = await waitForPeers(a!, (p) => p.length === 1, 'one link');
  const [onB] = await waitForPeers(b!, (p) => p.length === 1, 'one link');
  // The node that closed its outgoing twin moved its URL to the surviving (incoming) link.
  assert.equal([onA!.url, onB!.url], [b!.url, a!.url]);
});

test('a unix socket path is a peer URL: the link goes over the socket', async ({ dir, nodes: [a] }) => {
  const path = join(dir, 'peer.sock');
  const local = await startNode(join(dir, 'local'), ['--p2p', '-l', path]);
  try {
    assert.is((await connectPeer(a!, path)).status, 200);
    const [out] = await waitForPeers(a!, (p) => p.length === 1, 'the link over the socket');
    assert.equal(out, { id: out!.id, endpoint: path, url: path });
    const [inc] = await waitForPeers(local, (p) => p.length === 1, 'the incoming link');
    assert.equal(inc, { id: inc!.id, endpoint: 'local socket' });
  } finally {
    await local.stop();
  }
});

test('the endpoint answers 426 to a plain request, at /native/p2p and at x-peers.<host>/p2p', async ({ nodes: [a] }) => {
  for (const [host, path] of [['tsibase.localhost', '/native/p2p'], ['anything.example', '/native/p2p'], ['x-peers.tsibase.localhost', '/p2p'], ['x-peers.other.example', '/p2p']] as const) {
    const reply = await hostRequest(a!, host, path);
    assert.is(reply.status, 426, `${host}${path}`);
    assert.is(reply.headers.upgrade, 'websocket');
    assert.match(reply.text(), 'websocket endpoint');
  }
});

test('PUT /config applies p2p and peers at once: off refuses links with 403, peers are dialled', async ({ nodes: [a, b] }) => {
  const config = (await adminRequest(b!, '/config')).json() as Record<string, unknown>;
  try {
    assert.is((await adminRequest(b!, '/config', { method: 'PUT', json: { ...config, p2p: false } })).status, 200);
    const refused = await hostRequest(b!, 'tsibase.localhost', '/native/p2p');
    assert.is(refused.status, 403);
    assert.match(refused.text(), 'p2p off');
    await connectPeer(a!, b!);
    // Both ends say why, and what to do.
    await waitForOutput(a!, `peer ${b!.url}: dial failed: peer does not accept p2p links: start it with --p2p or set p2p in its config`);
    await waitForOutput(b!, /refusing a peer link from 127\.0\.0\.1 with 403: this node does not accept p2p links \(start it with --p2p/);
    assert.equal(await peersOf(b!), []);
    assert.is((await adminRequest(b!, '/config', { method: 'PUT', json: { ...config, p2p: true, peers: [a!.url] } })).status, 200);
    const [link] = await waitForPeers(b!, (p) => p.length === 1, 'the configured peer');
    assert.is(link!.url, a!.url);
  } finally {
    await adminRequest(b!, '/config', { method: 'PUT', json: config });
  }
});

test.run();
