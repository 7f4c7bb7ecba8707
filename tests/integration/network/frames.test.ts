// What a node does with the frames a peer sends (docs/p2p.md §1.2-§1.4), seen from a websocket
// client in the test: the IdMessage and HostnamesMessage every new link starts with, refusals of
// frames it cannot read (logged; the link and the node stay up), a peer that claims the node's
// own id, an oversized frame, and Origins.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { decodeLinkMessage, encodeLinkMessage, FIRST_LINK_TYPE, type LinkMessage } from '../../../runtime/network/links/link-messages.js';
import { MAX_FRAME_BYTES } from '../../../runtime/network/links/peer-links.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { peersOf, startNetwork, stopNetwork, waitForOutput, waitForPeers, waitUntil, type NetworkNode } from '../../lib/node-network.js';

interface Ctx { dir: string; node: NetworkNode }
const test = suite<Ctx>('peer link frames');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-frames-'));
  [ctx.node] = await startNetwork(ctx.dir, 1);
});

test.after(async (ctx) => {
  if (ctx.node) await stopNetwork([ctx.node]);
  rmSync(ctx.dir, { recursive: true, force: true });
});

interface TestPeer {
  socket: WebSocket;
  /** The link messages the node sent, in order. */
  received: LinkMessage[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Links to the node as psibase dials (`x-peers.<authority>/p2p`, no Origin unless given). */
function linkTo(node: NetworkNode, origin?: string): Promise<TestPeer> {
  const socket = new WebSocket(`ws://127.0.0.1:${node.port}/p2p`, { headers: { host: `x-peers.127.0.0.1:${node.port}` }, ...(origin ? { origin } : {}) });
  const received: LinkMessage[] = [];
  // Frames below 64 are the layer above's (docs/p2p.md §1.2): not this test's business.
  socket.on('message', (data: Buffer) => {
    if (data[0]! >= FIRST_LINK_TYPE) received.push(decodeLinkMessage(data));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, received, closed }));
    socket.once('error', reject);
  });
}

const received = (peer: TestPeer, count: number) => waitUntil(`${count} link messages`, async () => peer.received.length >= count && peer.received);

test('a new link starts with the node\'s IdMessage and HostnamesMessage', async ({ node }) => {
  const peer = await linkTo(node);
  const [id, hostnames] = await received(peer, 2);
  assert.is(id!.kind, 'id');
  const { nodeId, connectionId } = id as Extract<LinkMessage, { kind: 'id' }>;
  assert.ok(nodeId !== 0n);
  const [link] = await waitForPeers(node, (p) => p.length === 1, 'the test peer');
  assert.is(connectionId, link!.id, 'the node\'s own id of the link');
  assert.equal(hostnames, { kind: 'hostnames', hosts: ['tsibase.localhost', '127.0.0.1'] });
  peer.socket.close();
  await waitForPeers(node, (p) => p.length === 0, 'no links');
});

test('frames of type 64 or more that are no link message are refused and logged with the reason; the link and node stay up', async ({ node }) => {
  const bad: Array<[Uint8Array, string]> = [
    [Uint8Array.of(99, 1, 2, 3), 'refused a frame: unknown link message type 99'],
    [Uint8Array.of(64), 'refused a frame: link message type 64:'],
    [new Uint8Array(), 'refused a frame: an empty frame'],
    [Uint8Array.of(200, ...new Array(100).fill(0xff)), 'refused a frame: unknown link message type 200'],
  ];
  for (const [frame, line] of bad) {
    const peer = await linkTo(node);
    const [link] = await waitForPeers(node, (p) => p.length === 1, 'the test peer');
    peer.socket.send(frame);
    await waitForOutput(node, new RegExp(`p2p link ${link!.id} \\(from 127\\.0\\.0\\.1:\\d+\\): ${line}`));
    // An unknown type below 64 is the layer above's, which ignores it (docs/p2p.md §2.0).
    peer.socket.send(Uint8Array.of(7, 1, 2, 3));
    assert.equal((await peersOf(node)).map((p) => p.id), [link!.id], 'the link is still up');
    peer.socket.close();
    await waitForPeers(node, (p) => p.length === 0, 'no links');
  }
  assert.is((await adminRequest(node, '/native/admin/status')).status, 200);
});

test('a flood of refused frames on a link is logged once, then as a count', async ({ node }) => {
  const peer = await linkTo(node);
  const [link] = await waitForPeers(node, (p) => p.length === 1, 'the test peer');
  for (let i = 0; i < 100; i++) peer.socket.send(Uint8Array.of(99, i));
  await waitForOutput(node, `p2p link ${link!.id} (from 127.0.0.1:`);
  peer.socket.send(encodeLinkMessage({ kind: 'checkDuplicates' }));
  // The link going down says how many were not logged one by one.
  peer.socket.close();
  const output = await waitForOutput(node, `link ${link!.id}: refused 99 more frames or messages in the last 10 s`);
  assert.is(output.split('\n').filter((l) => l.includes(`p2p link ${link!.id} `) && l.includes('refused a frame')).length, 1, output);
});

test('a peer that announces the node\'s own id is taken for a link to itself and closed (1008)', async ({ node }) => {
  const peer = await linkTo(node);
  const [id] = await received(peer, 1);
  peer.socket.send(encodeLinkMessage({ kind: 'id', nodeId: (id as Extract<LinkMessage, { kind: 'id' }>).nodeId, connectionId: 1 }));
  assert.equal(await peer.closed, { code: 1008, reason: 'a link to this node itself' });
  await waitForPeers(node, (p) => p.length === 0, 'no links');
});

test('a frame over 16 MiB closes the link (1009); the node keeps running', async ({ node }) => {
  const peer = await linkTo(node);
  peer.socket.send(new Uint8Array(MAX_FRAME_BYTES + 1));
  assert.is((await peer.closed).code, 1009);
  await waitForPeers(node, (p) => p.length === 0, 'no links');
  assert.is((await adminRequest(node, '/native/admin/status')).status, 200);
});

/** The status of the node's refusal of a handshake. */
function refusalOf(node: NetworkNode, options: ConstructorParameters<typeof WebSocket>[2]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${node.port}/native/p2p`, options);
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => reject(new Error('the handshake was accepted')));
  });
}

test('an Origin of the node\'s own hosts is accepted; a foreign one is a 400', async ({ node }) => {
  const own = await linkTo(node, 'http://x-admin.tsibase.localhost');
  own.socket.close();
  assert.is(await refusalOf(node, { origin: 'http://evil.example' }), 400);
});

test('a handshake of another websocket version is no valid upgrade: 426', async ({ node }) => {
  assert.is(await refusalOf(node, { protocolVersion: 8 }), 426);
});

test.run();
