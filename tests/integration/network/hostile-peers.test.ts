// Peers that attack (docs/p2p.md "What we build" 1; docs/administration.md §2 max_peers), on
// real node processes, with raw websocket clients as the hostile peers: a link without its hello
// is closed; past max_peers incoming links are refused and the flood is logged once; invalid
// blocks and consensus messages are refused with their reason, and a peer that keeps sending them
// is banned (its address refused, its URL not redialled) until the ban ends; a link that sends
// more than the node can process is slowed, then dropped; an honest follower keeps up during a
// flood from three hostile links, and the node's memory stays within 100 MiB of what it was.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocketServer, type WebSocket } from 'ws';
import { blockId, generateKeyPair, privateKeyToPkcs8, toPem, type KeyPair } from '../../../host-api/index.js';
import { accountNumberFromName } from '../../../host-api/names/index.js';
import type { BlockHeader, SignedBlock } from '../../../host-api/types/index.js';
import { encodeLinkMessage } from '../../../runtime/network/links/link-messages.js';
import { MINOR_LIMIT } from '../../../runtime/network/links/peer-links.js';
import { encodeMessage, signedMessage, type P2PMessage } from '../../../runtime/network/messages/index.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { floodFrom, FRAMES_A_ROUND } from '../../lib/flood-peers.js';
import { linkHostile, linkRefusal, residentBytes, type HostilePeer } from '../../lib/hostile-peer.js';
import { nodeProcessId, startNode, type RunningNode } from '../../lib/node-process.js';
import { peersOf, waitForOutput, waitForPeers, waitUntil } from '../../lib/node-network.js';
import { headerOf } from '../../lib/producer-network.js';
import { builtBundle } from '../../lib/test-bundle.js';

const urlOf = (node: RunningNode) => `http://127.0.0.1:${node.port}`;
const name = accountNumberFromName;
/** A guard against waiting for ever on a node that never closes a link (never reached when it works). */
const GIVE_UP_MS = 60_000;

/** How the node closed the peer's link; a failure when it has not within GIVE_UP_MS. */
async function closedByNode(peer: HostilePeer): Promise<{ code: number; reason: string }> {
  const closed = await Promise.race([peer.closed, sleep(GIVE_UP_MS, undefined, { ref: false })]);
  if (!closed) throw new Error(`the node did not close the link within ${GIVE_UP_MS / 1000} s`);
  return closed;
}

// ---- limits on links: hello, max_peers ----

interface LimitsCtx { dir: string; node: RunningNode }
const limits = suite<LimitsCtx>('peer link limits');
const MAX_PEERS = 3;

limits.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-limits-'));
  ctx.node = await startNode(join(ctx.dir, 'node'), ['--p2p', '--max-peers', String(MAX_PEERS)]);
});

limits.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

limits('a link that does not say its hello within 5 s is closed (1008); one that does stays', async ({ node }) => {
  const silent = await linkHostile(node, { hello: false });
  const polite = await linkHostile(node);
  assert.equal(await closedByNode(silent), { code: 1008, reason: 'no IdMessage and HostnamesMessage within 5 s' });
  assert.ok(polite.open(), 'the link that said its hello is up');
  assert.is((await peersOf(node)).length, 1);
  polite.socket.close();
  await waitForPeers(node, (p) => p.length === 0, 'no links');
});

limits('past max_peers a new link gets 503, the flood is logged once; links made room for, and the node\'s own dials, go through', async ({ dir, node }) => {
  const held = await Promise.all(Array.from({ length: MAX_PEERS }, () => linkHostile(node)));
  await waitForPeers(node, (p) => p.length === MAX_PEERS, 'max_peers links');
  const refused = await Promise.all(Array.from({ length: 20 }, () => linkRefusal(node)));
  for (const r of refused) {
    assert.is(r.status, 503);
    assert.match(r.body, `as many peer links as it takes (max_peers ${MAX_PEERS}); try again later`);
  }
  const lines = node.output().split('\n').filter((l) => l.includes('refusing new peer links with 503'));
  assert.equal(lines.length, 1, node.output());
  assert.match(lines[0]!, `${MAX_PEERS} links, max_peers is ${MAX_PEERS}`);
  // The node's own dial is not refused: links to peers it chose are the operator's.
  const other = await startNode(join(dir, 'other'), ['--p2p']);
  try {
    assert.is((await adminRequest(node, '/native/admin/connect', { json: { url: urlOf(other) } })).status, 200);
    await waitForPeers(node, (p) => p.length === MAX_PEERS + 1 && p.some((l) => l.url === urlOf(other)), 'the dialled link past max_peers');
  } finally {
    await other.stop();
  }
  await waitForPeers(node, (p) => p.length === MAX_PEERS, 'the dialled link gone');
  held[0]!.socket.close();
  await waitForPeers(node, (p) => p.length === MAX_PEERS - 1, 'room for one');
  const again = await linkHostile(node);
  await waitForPeers(node, (p) => p.length === MAX_PEERS, 'the new link');
  for (const peer of [...held, again]) peer.socket.close();
  await waitForPeers(node, (p) => p.length === 0, 'no links');
});

limits('max_peers is checked by PUT /config (a 400 names the field) and a new value applies at once', async ({ node }) => {
  const base = (await adminRequest(node, '/config')).json() as Record<string, unknown>;
  assert.is(base.max_peers, MAX_PEERS, '--max-peers is in the configuration');
  for (const bad of [0, -1, 2.5, 'many', true, 20_000]) {
    const r = await adminRequest(node, '/config', { method: 'PUT', json: { ...base, max_peers: bad } });
    assert.is(r.status, 400, JSON.stringify(bad));
    assert.match(r.text(), 'max_peers');
  }
  try {
    assert.is((await adminRequest(node, '/config', { method: 'PUT', json: { ...base, max_peers: 1 } })).status, 200);
    const first = await linkHostile(node);
    await waitForPeers(node, (p) => p.length === 1, 'one link');
    assert.is((await linkRefusal(node)).status, 503);
    first.socket.close();
    await waitForPeers(node, (p) => p.length === 0, 'no links');
  } finally {
    await adminRequest(node, '/config', { method: 'PUT', json: base });
  }
});

limits.run();

// ---- peers that send what they must not ----

interface AttackCtx { dir: string; producer: RunningNode; follower: RunningNode; stranger: KeyPair }
const attacks = suite<AttackCtx>('hostile peers');

/** Redial base 300 ms: a ban lasts the longest redial wait, ten times that (3 s). */
const REDIAL_MS = 300;
const BAN_MS = 10 * REDIAL_MS;
const ENV = { TSIBASE_P2P_REDIAL_MS: String(REDIAL_MS) };
const BLOCK_MS = '200';

attacks.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-hostile-'));
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await builtBundle());
  // A producer that signs its blocks, so that a forged signature is one.
  const blockKey = join(ctx.dir, 'block.pem');
  writeFileSync(blockKey, toPem('PRIVATE KEY', privateKeyToPkcs8(generateKeyPair('secp256k1'))), { mode: 0o600 });
  ctx.producer = await startNode(join(ctx.dir, 'producer'), ['-p', 'prod', '--boot', bundle, '--block-key', blockKey, '--p2p', '--block-interval', BLOCK_MS], ENV);
  ctx.follower = await startNode(join(ctx.dir, 'follower'), ['--peer', urlOf(ctx.producer), '--p2p', '--block-interval', BLOCK_MS], ENV);
  ctx.stranger = generateKeyPair();
  await caughtUp(ctx.follower, ctx.producer);
});

attacks.after(async (ctx) => {
  await Promise.all([ctx.producer, ctx.follower].map((n) => n?.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Waits until `follower` holds the producer's head of now. */
async function caughtUp(follower: RunningNode, producer: RunningNode): Promise<void> {
  const target = (await headerOf(producer)).blockNum;
  await waitUntil(`${follower.api} at block ${target}`, async () => (await headerOf(follower)).blockNum >= target, 60_000);
}

/** A child of `parent` as a hostile peer makes it: a later term (so it is the best block), unsigned, `change` applied. */
function childOf(parent: SignedBlock, change: Partial<BlockHeader> = {}, transactions: SignedBlock['block']['transactions'] = []): SignedBlock {
  const header = parent.block.header;
  return {
    block: { header: { ...header, previous: blockId(header), blockNum: header.blockNum + 1, term: header.term + 1, newConsensus: null, authCode: null, ...change }, transactions },
    signature: randomBytes(64),
    auxConsensusData: null,
  };
}

/** Sends `make(newest block)` each time the node streams the peer a new block, until the node closes the link. */
async function sendOnEachBlock(peer: HostilePeer, make: (head: SignedBlock) => SignedBlock): Promise<{ code: number; reason: string }> {
  let sent = 0;
  const timer = setInterval(() => {
    for (; sent < peer.blocks.length; sent++) peer.send({ kind: 'BlockMessage', body: { block: make(peer.blocks[peer.blocks.length - 1]!) } });
  }, 5);
  try {
    return await closedByNode(peer);
  } finally {
    clearInterval(timer);
  }
}

/** RouteUpdateMessage (docs/p2p.md §2.1). */
const ROUTE_UPDATE_TYPE = 4;

/** A ConfirmMessage signed for a claim with a signature that does not verify. */
function forgedConfirm(stranger: KeyPair): P2PMessage {
  const body = { term: 1, followerId: name('prod'), headNum: 1, signer: { service: name('verify-sig'), rawData: stranger.publicKey } };
  return signedMessage('ConfirmMessage', body, randomBytes(64)) as P2PMessage;
}

attacks('invalid blocks and another chain\'s hello are refused with their reason and close the link; the fifth offence bans the address until the ban ends', async ({ follower, producer, stranger }) => {
  const from = '127.0.0.11';
  const cases: Array<[string, (peer: HostilePeer) => Promise<{ code: number; reason: string }>, RegExp]> = [
    ['a bad signature', (peer) => sendOnEachBlock(peer, (head) => childOf(head)), /block \d+ [0-9A-F]+ was refused: block \d+: the signature of producer 'prod' does not verify/],
    ['a wrong producer', (peer) => sendOnEachBlock(peer, (head) => childOf(head, { producer: name('alice') })), /was refused: block \d+: 'alice' is not a producer of the consensus in force/],
    ['a wrong previous', (peer) => sendOnEachBlock(peer, (head) => childOf(head, { blockNum: head.block.header.blockNum + 2 })), /Block \d+ [0-9A-F]+ does not follow its parent/],
    ['a block of another chain', async (peer) => {
      peer.send({ kind: 'InitMessage', body: { version: 0 } });
      peer.send({ kind: 'HelloRequest', body: { xid: { id: randomBytes(32), num: 2 }, committed: true } });
      return closedByNode(peer);
    }, /No common block found/],
  ];
  for (const [what, attack, line] of cases) {
    const peer = await linkHostile(follower, { from, stream: what !== 'a block of another chain' });
    // The close reason is cut to a websocket's 123 bytes; the log has it whole.
    const { code, reason } = await attack(peer);
    assert.is(code, 1008, `${what}: ${reason}`);
    await waitForOutput(follower, new RegExp(`link \\d+: .*${line.source}.*; closing it`));
  }
  const probe = await linkHostile(follower, { from });
  assert.ok(probe.open(), 'four offences ban nobody');
  probe.socket.close();
  // The fifth: consensus messages whose signatures do not verify, which close the link at the MINOR_LIMIT-th.
  const peer = await linkHostile(follower, { from });
  for (let i = 0; i < MINOR_LIMIT; i++) peer.send(forgedConfirm(stranger));
  const { code, reason } = await closedByNode(peer);
  assert.is(code, 1008);
  assert.match(reason, /^banned until /);
  await waitForOutput(follower, `peer ${from} is banned until`);
  assert.match(follower.output(), /link \d+: ConfirmMessage: its signature does not verify/);
  const refusal = await linkRefusal(follower, from);
  assert.is(refusal.status, 403);
  assert.match(refusal.body, `${from} is banned until`);
  await waitForOutput(follower, `refusing peer links from banned peers with 403: ${from} until`);
  // Other addresses are not banned, and the follower goes on following.
  const honest = await linkHostile(follower, { from: '127.0.0.12' });
  assert.ok(honest.open());
  honest.socket.close();
  await caughtUp(follower, producer);
  // The ban ends.
  const back = await waitUntil('the ban over', async () => linkHostile(follower, { from }).catch(() => undefined), 4 * BAN_MS);
  back.socket.close();
});

attacks('consensus messages whose signature does not verify are refused and logged; the link stays up to the MINOR_LIMIT-th, which closes it', async ({ follower, stranger }) => {
  const from = '127.0.0.21';
  const peer = await linkHostile(follower, { from });
  await waitForPeers(follower, (p) => p.length === 2, 'the hostile link');
  for (let i = 1; i < MINOR_LIMIT; i++) peer.send(forgedConfirm(stranger));
  await waitForOutput(follower, /link \d+: ConfirmMessage: its signature does not verify$/m);
  // The node answers a request sent after them (with its routes): it handled the four and kept the link.
  const routes = () => peer.types.filter((t) => t === ROUTE_UPDATE_TYPE).length;
  const before = routes();
  peer.send({ kind: 'RequestRoutesMessage', body: {} });
  await waitUntil('the routes asked for', async () => routes() > before);
  assert.ok(peer.open(), `${MINOR_LIMIT - 1} refused messages do not close the link`);
  peer.send(forgedConfirm(stranger));
  const { code, reason } = await closedByNode(peer);
  assert.is(code, 1008);
  assert.match(reason, `${MINOR_LIMIT} refused messages within 60 s, the last: ConfirmMessage: its signature does not verify`);
  // One offence: the address is not banned.
  const again = await linkHostile(follower, { from });
  assert.ok(again.open());
  again.socket.close();
});

attacks('a peer the node dials that keeps sending invalid messages is banned: its URL is not redialled until the ban ends', async ({ follower, stranger }) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dials: number[] = [];
  server.on('connection', (socket: WebSocket) => {
    dials.push(Date.now());
    socket.send(encodeLinkMessage({ kind: 'id', nodeId: 12345n, connectionId: 1 }));
    socket.send(encodeLinkMessage({ kind: 'hostnames', hosts: [] }));
    for (let i = 0; i < MINOR_LIMIT; i++) socket.send(encodeMessage(forgedConfirm(stranger)));
  });
  const config = (await adminRequest(follower, '/config')).json() as { peers: string[] };
  try {
    assert.is((await adminRequest(follower, '/config', { method: 'PUT', json: { ...config, peers: [...config.peers, url] } })).status, 200);
    const output = await waitForOutput(follower, new RegExp(`peer ${url} is banned until (\\S+):`));
    const until = Date.parse(new RegExp(`peer ${url} is banned until (\\S+):`).exec(output)![1]!);
    const bannedAt = dials.length;
    assert.ok(bannedAt >= 1);
    await waitForOutput(follower, `peer ${url} is banned until ${new Date(until).toISOString()}: it is dialled then`);
    await waitUntil('the URL dialled again after the ban', async () => dials.length > bannedAt, 4 * BAN_MS);
    assert.ok(dials[bannedAt]! >= until, `dialled at ${dials[bannedAt]}, before the ban's end ${until}`);
  } finally {
    await adminRequest(follower, '/config', { method: 'PUT', json: config });
    for (const client of server.clients) client.terminate();
    server.close();
  }
});

attacks('a link that sends more than the node can process is slowed, then dropped; the node goes on following', async ({ follower, producer }) => {
  const peer = await linkHostile(follower, { from: '127.0.0.31' });
  // Requests the node answers one by one (with its routes), cheap each, as many as the socket takes.
  const frame = encodeMessage({ kind: 'RequestRoutesMessage', body: {} });
  const answers = () => peer.types.filter((t) => t === ROUTE_UPDATE_TYPE).length;
  let sent = 0;
  const started = Date.now();
  while (peer.open() && Date.now() - started < 120_000) {
    if (peer.socket.bufferedAmount < 16 * 1024 * 1024) {
      for (let i = 0; i < 2_000; i++) peer.socket.send(frame);
      sent += 2_000;
    }
    await sleep(1);
  }
  const { code, reason } = await closedByNode(peer);
  assert.is(code, 1008);
  assert.match(reason, 'it sends more than this node can process');
  await waitForOutput(follower, /link \d+: it sends more than this node can process .*; closing it/);
  // Slowed: the node handled (answered) only a part of what the peer sent before it dropped it.
  assert.ok(answers() < sent / 2, `${answers()} of ${sent} requests answered`);
  await caughtUp(follower, producer);
});

attacks('an honest follower keeps up during a 10 s flood from three hostile links; its memory stays within 100 MiB', async ({ follower, producer }) => {
  const pid = nodeProcessId(follower);
  const before = await residentBytes(pid);
  const FLOOD_MS = 10_000;
  const flood = floodFrom({ port: follower.port, api: follower.api, from: ['127.0.0.41', '127.0.0.42', '127.0.0.43'], durationMs: FLOOD_MS });
  // Meanwhile the follower follows: how far behind the producer it ever is, in blocks.
  let mostBehind = 0;
  let samples = 0;
  const producedBefore = (await headerOf(producer)).blockNum;
  const end = Date.now() + FLOOD_MS;
  while (Date.now() < end) {
    const ahead = (await headerOf(producer)).blockNum;
    mostBehind = Math.max(mostBehind, ahead - (await headerOf(follower)).blockNum);
    samples++;
    await sleep(250);
  }
  const { sent, open } = await flood;
  const after = await residentBytes(pid);
  const produced = (await headerOf(producer)).blockNum - producedBefore;
  // A flood is what the node lets in (it slows each link to its share): at least ten rounds, 40 MiB of blocks, from each link.
  assert.ok(sent.every((n) => n >= 10 * FRAMES_A_ROUND), `the hostile peers flooded: ${sent.join(', ')} frames`);
  assert.equal(open, [true, true, true], 'the flood went on for its whole time');
  assert.ok(samples >= 20, `the follower answered throughout the flood (${samples} samples)`);
  assert.ok(produced >= 20, `the producer produced ${produced} blocks during the flood`);
  // One block behind is the link's and the sampling's own lag; five leave room for a loaded machine.
  assert.ok(mostBehind <= 5, `the follower was ${mostBehind} blocks behind at most`);
  assert.ok(after - before < 100 * 1024 * 1024, `resident memory went from ${before} to ${after} bytes`);
  await caughtUp(follower, producer);
});

attacks.run();
