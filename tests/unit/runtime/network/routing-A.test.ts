// docs/p2p.md §A (and §1.3 step 2): shortest-path routing to producers, driven through routers
// wired in process (routing-network.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  decodeMessage, encodeMessage, signedMessage, type P2PMessage,
} from '../../../../runtime/network/messages/index.js';
import { INFINITE_METRIC, Router } from '../../../../runtime/network/routing/index.js';
import { bytesToHex } from '../../../lib/hex.js';
import { SAMPLE_BODIES, sampleMessage } from './p2p-samples.js';
import { name, RoutedNetwork } from './routing-network.js';

const emptyClaim = { service: 0n, rawData: new Uint8Array(0) };

/** Nodes 0..n-1 in a line (ring: also n-1 to 0), producers at the given nodes named p<node>. */
function build(n: number, producerNodes: number[], ring = false): RoutedNetwork {
  const net = new RoutedNetwork(n);
  net.setProducers(new Map(producerNodes.map((i) => [i, name(`p${i}`)])));
  for (let i = 0; i + 1 < n; i++) net.link(i, i + 1);
  if (ring) net.link(n - 1, 0);
  net.settle();
  return net;
}

function assertDistances(net: RoutedNetwork, producerNodes: number[], hops: (from: number, to: number) => number): void {
  net.routers.forEach((router, node) => {
    for (const p of producerNodes) {
      const expected = node === p ? undefined : hops(node, p);
      assert.is(router.distance(name(`p${p}`)), expected, `node ${node} → p${p}`);
    }
  });
}

const ringHops = (n: number) => (a: number, b: number): number => Math.min(Math.abs(a - b), n - Math.abs(a - b));

test('§1.3 a new link gets InitMessage, then our selected routes, then our own route if we are a producer', () => {
  const net = build(3, [0, 2]); // node 1 routes to p0 and p2; node 2 is p2
  net.links.add('2>9');
  const ready = net.routers[2]!.step({ type: 'linkUp', peer: 9 }, 0);
  const sent = ready.sends.map((s) => decodeMessage(s.frame));
  assert.ok(ready.sends.every((s) => s.peer === 9));
  assert.equal(sent.map((m) => m.kind), ['InitMessage', 'RouteUpdateMessage', 'RouteUpdateMessage']);
  assert.equal(sent[0], { kind: 'InitMessage', body: { version: 0 } });
  assert.equal(sent[1], { kind: 'RouteUpdateMessage', body: { producer: name('p0'), seqno: 0, metric: 2, router: 1000n } });
  assert.equal(sent[2], { kind: 'RouteUpdateMessage', body: { producer: name('p2'), seqno: 0, metric: 0, router: 1002n } });

  const plain = new Router({ routerId: 5n, verify: () => true });
  assert.equal(plain.step({ type: 'linkUp', peer: 1 }, 0).sends.map((s) => decodeMessage(s.frame).kind), ['InitMessage'],
    'a node that is not a producer and knows no routes sends only InitMessage');
});

test('§A a line of 6 nodes: every node reaches every producer, metric = hops, next hop toward it', () => {
  const producers = [0, 3, 5];
  const net = build(6, producers);
  assertDistances(net, producers, (a, b) => Math.abs(a - b));
  net.routers.forEach((router, node) => {
    for (const p of producers) if (p !== node) assert.is(router.nextHop(name(`p${p}`)), p > node ? node + 1 : node - 1);
  });
});

test('§A a ring of 7 nodes, every node a producer: the shorter way round', () => {
  const producers = [0, 1, 2, 3, 4, 5, 6];
  const net = build(7, producers, true);
  assertDistances(net, producers, ringHops(7));
});

test('§A losing a link in a ring: the routes through it are withdrawn and go the other way round', () => {
  const producers = [0, 2, 4];
  const net = build(6, producers, true);
  net.unlink(0, 1);
  net.settle();
  assertDistances(net, producers, (a, b) => {
    // the ring is now the line 1-2-3-4-5-0
    const position = (x: number): number => (x + 5) % 6;
    return Math.abs(position(a) - position(b));
  });
  assert.is(net.routers[1]!.nextHop(name('p0')), 2);
});

test('§A losing the only way: the producer becomes unreachable, with a retraction and a seqno request', () => {
  const net = build(4, [3]);
  const before = net.carried.length;
  net.unlink(1, 2);
  net.settle();
  assert.is(net.routers[0]!.distance(name('p3')), undefined);
  assert.is(net.routers[1]!.distance(name('p3')), undefined);
  assert.is(net.routers[2]!.distance(name('p3')), 1);
  const after = net.carried.slice(before).filter((c) => c.from === 1);
  const retraction = after.find((c) => c.message.kind === 'RouteUpdateMessage');
  assert.ok(retraction, 'node 1 retracts its route');
  assert.equal((retraction!.message as Extract<P2PMessage, { kind: 'RouteUpdateMessage' }>).body,
    { producer: name('p3'), seqno: 0, metric: INFINITE_METRIC, router: 1003n });
  const request = after.find((c) => c.message.kind === 'RouteSeqnoRequest');
  assert.ok(request, 'and asks for a newer seqno');
  assert.equal((request!.message as Extract<P2PMessage, { kind: 'RouteSeqnoRequest' }>).body, { producer: name('p3'), seqno: 1, ttl: 64 });

  net.link(1, 2);
  net.settle();
  assert.is(net.routers[0]!.distance(name('p3')), 3, 'a new link brings the route back');
});

test('§A a RoutingEnvelope reaches a producer two hops away, and is handed up there', () => {
  const net = build(3, [2]);
  const confirm = signedMessage('ConfirmMessage', { term: 4, followerId: name('p0'), headNum: 9, signer: emptyClaim }, new Uint8Array(0));
  net.step(0, { type: 'sendTo', producer: name('p2'), message: confirm });
  net.settle();
  assert.equal(net.delivered[2], [{ peer: 1, message: confirm }]);
  assert.equal(net.delivered[1], []);
  const hops = net.carried.filter((c) => c.message.kind === 'RoutingEnvelope').map((c) => `${c.from}>${c.to}`);
  assert.equal(hops, ['0>1', '1>2']);
});

test('§A multicast to producers: one envelope per reachable producer', () => {
  const net = build(5, [0, 2, 4]);
  const vote = signedMessage('RequestVoteRequest', { ...SAMPLE_BODIES.RequestVoteRequest, signer: emptyClaim }, new Uint8Array(0));
  net.step(2, { type: 'multicastProducers', message: vote });
  net.settle();
  assert.equal(net.delivered[0], [{ peer: 1, message: vote }]);
  assert.equal(net.delivered[4], [{ peer: 3, message: vote }]);
  assert.equal(net.delivered[2], [], 'not to ourselves');
});

test('§A relaying Prepare, Commit and StateChecksum waits for the next hop to have the block', () => {
  const net = build(3, [2]);
  for (const kind of ['PrepareMessage', 'CommitMessage', 'StateChecksumMessage'] as const) {
    const message = sampleMessage(kind);
    net.step(0, { type: 'sendTo', producer: name('p2'), message, afterBlock: SAMPLE_BODIES[kind].blockId });
    net.settle();
    const relayed = net.carried.filter((c) => c.from === 1 && c.message.kind === 'RoutingEnvelope').at(-1)!;
    assert.is(bytesToHex(relayed.afterBlock!), bytesToHex(SAMPLE_BODIES[kind].blockId), kind);
    assert.equal(net.delivered[2]!.at(-1), { peer: 1, message }, kind);
  }
});

test('§A relaying refuses the types psibase does not relay (Hello, Block, ViewChange …)', () => {
  const net = build(3, [2]);
  for (const kind of ['HelloRequest', 'BlockMessage', 'ViewChangeMessage', 'RequestViewMessage', 'InitMessage'] as const) {
    net.step(0, { type: 'sendTo', producer: name('p2'), message: sampleMessage(kind) });
    net.settle();
    assert.ok(net.logs[1]!.some((l) => l.startsWith('warning') && l.includes(kind) && l.includes('not relayed')), kind);
  }
  assert.equal(net.delivered[2], []);
  assert.ok(net.carried.every((c) => !(c.from === 1 && c.message.kind === 'RoutingEnvelope')));
});

test('"What we build" 4: a forwarded transaction (WasmProducerMessage) is relayed to a producer that is no neighbour', () => {
  const net = build(3, [2]);
  const message = sampleMessage('WasmProducerMessage');
  net.step(0, { type: 'sendTo', producer: name('p2'), message });
  net.settle();
  assert.equal(net.delivered[2]!.at(-1), { peer: 1, message });
});

test('§A/§2.0 a relayed or delivered signed message must pass the injected signature check', () => {
  const net = new RoutedNetwork(3, (node) => node !== 1);
  net.setProducers(new Map([[2, name('p2')]]));
  net.link(0, 1);
  net.link(1, 2);
  net.settle();
  net.step(0, { type: 'sendTo', producer: name('p2'), message: sampleMessage('ConfirmMessage') });
  net.settle();
  assert.equal(net.delivered[2], [], 'node 1 refused to relay it');
  assert.ok(net.logs[1]!.some((l) => l.includes('signature')));
  // a direct signed message to node 1 is not handed up either; an unsigned one is
  net.step(0, { type: 'receive', peer: 1, message: sampleMessage('HelloRequest') });
  net.step(1, { type: 'receive', peer: 0, message: sampleMessage('PrepareMessage') });
  net.step(1, { type: 'receive', peer: 0, message: sampleMessage('HelloRequest') });
  assert.equal(net.delivered[1]!.map((d) => d.message.kind), ['HelloRequest']);
});

test('§A an envelope to us whose inner message does not decode closes the link', () => {
  const net = build(2, [1]);
  const bad = { kind: 'RoutingEnvelope', body: { destination: name('p1'), data: Uint8Array.of(35, 1, 2) } } as const;
  const ready = net.routers[1]!.step({ type: 'receive', peer: 0, message: decodeMessage(encodeMessage(bad)) }, 0);
  assert.is(ready.disconnects.length, 1);
  assert.match(ready.disconnects[0]!.reason, /ConfirmMessage/);
});

test('§A a seqno request for us raises our seqno at most once a second; a timer does the deferred one', () => {
  const net = build(2, [1]);
  const request = (seqno: number): void => {
    net.step(1, { type: 'receive', peer: 0, message: { kind: 'RouteSeqnoRequest', body: { producer: name('p1'), seqno, ttl: 64 } } });
    net.settle();
  };
  const ownUpdates = (): number[] => net.carried
    .filter((c) => c.from === 1 && c.message.kind === 'RouteUpdateMessage')
    .map((c) => (c.message as Extract<P2PMessage, { kind: 'RouteUpdateMessage' }>).body.seqno);
  net.now = 5000;
  const before = ownUpdates().length;
  request(1);
  assert.equal(ownUpdates().slice(before), [1]);
  net.now = 5400;
  request(2);
  assert.equal(ownUpdates().slice(before), [1], 'not again within a second');
  assert.equal(net.timers[1]!.get('seqno'), { name: 'seqno', at: 6000 });
  net.now = 6000;
  net.fireDue(1);
  net.settle();
  assert.equal(ownUpdates().slice(before), [1, 2]);
  assert.is(net.routers[0]!.distance(name('p1')), 1);
  net.step(1, { type: 'timer', name: 'seqno' });
  net.settle();
  assert.equal(ownUpdates().slice(before), [1, 2], 'a timer with nothing waiting does nothing');
});

test('§A a node answers a seqno request from a route at least that new', () => {
  const net = build(3, [2]);
  const ready = net.routers[1]!.step({ type: 'receive', peer: 0, message: { kind: 'RouteSeqnoRequest', body: { producer: name('p2'), seqno: 0, ttl: 64 } } }, 0);
  assert.equal(ready.sends.map((s) => [s.peer, decodeMessage(s.frame)]), [
    [0, { kind: 'RouteUpdateMessage', body: { producer: name('p2'), seqno: 0, metric: 1, router: 1002n } }],
  ]);
});

test('§A a seqno request for a newer seqno is forwarded toward the producer with ttl-1, repeats ignored for 30 s', () => {
  const net = build(4, [3]);
  const ask = (ttl: number) => net.routers[1]!.step(
    { type: 'receive', peer: 0, message: { kind: 'RouteSeqnoRequest', body: { producer: name('p3'), seqno: 5, ttl } } }, net.now);
  const first = ask(64);
  assert.equal(first.sends.map((s) => [s.peer, decodeMessage(s.frame)]), [
    [2, { kind: 'RouteSeqnoRequest', body: { producer: name('p3'), seqno: 5, ttl: 63 } }],
  ]);
  net.now = 30_000;
  assert.equal(ask(64).sends, [], 'the same request within 30 s');
  net.now = 30_001;
  assert.is(ask(64).sends.length, 1, 'after 30 s it goes on again');
  net.now = 90_000;
  assert.equal(ask(1).sends, [], 'ttl 1 stops here');
});

test('§A seqno order is cyclic over 16 bits: a newer seqno after wrap-around replaces the route', () => {
  const router = new Router({ routerId: 1n, verify: () => true });
  router.step({ type: 'producers', producers: [name('p')] }, 0);
  router.step({ type: 'linkUp', peer: 1 }, 0);
  router.step({ type: 'linkUp', peer: 2 }, 0);
  const update = (peer: number, seqno: number, metric: number) => router.step(
    { type: 'receive', peer, message: { kind: 'RouteUpdateMessage', body: { producer: name('p'), seqno, metric, router: 7n } } }, 0);
  update(1, 0xfffe, 3);
  assert.is(router.distance(name('p')), 4);
  update(2, 0xfffe, 5);
  assert.is(router.nextHop(name('p')), 1, 'the same seqno with a larger metric is not better');
  update(1, 0xfffe, 8);
  assert.is(router.distance(name('p')), undefined, 'worse than recorded at the same seqno: no longer feasible');
  update(2, 0x0001, 5);
  assert.is(router.nextHop(name('p')), 2, '1 is newer than 0xfffe');
  assert.is(router.distance(name('p')), 6);
});

test('§A routes to non-producers and to ourselves are ignored; a producer change purges them and asks for routes', () => {
  const net = build(3, [2]);
  assert.is(net.routers[0]!.distance(name('p2')), 2);
  const before = net.carried.length;
  net.step(0, { type: 'producers', producers: [name('p9')] });
  assert.is(net.routers[0]!.distance(name('p2')), undefined, 'p2 is no longer a producer for node 0');
  net.settle();
  const fromZero = net.carried.slice(before).filter((c) => c.from === 0).map((c) => c.message.kind);
  assert.equal(fromZero, ['RequestRoutesMessage']);
  assert.is(net.routers[0]!.distance(name('p2')), undefined, 'the answers about p2 are ignored');

  // becoming a producer: our own route first, then the request
  const ready = net.routers[0]!.step({ type: 'self', name: name('p9') }, 0);
  assert.equal(ready.sends.map((s) => decodeMessage(s.frame).kind), ['RouteUpdateMessage', 'RequestRoutesMessage']);
  net.step(1, { type: 'producers', producers: [name('p9')] });
  net.step(2, { type: 'producers', producers: [name('p9')] });
  net.settle();
  net.step(0, { type: 'receive', peer: 1, message: { kind: 'RequestRoutesMessage', body: {} } });
  net.settle();
  assert.is(net.routers[2]!.distance(name('p9')), 2);
});

test('§2.0 an InitMessage of another version closes the link', () => {
  const router = new Router({ routerId: 1n, verify: () => true });
  router.step({ type: 'linkUp', peer: 4 }, 0);
  assert.equal(router.step({ type: 'receive', peer: 4, message: { kind: 'InitMessage', body: { version: 0 } } }, 0).disconnects, []);
  const ready = router.step({ type: 'receive', peer: 4, message: { kind: 'InitMessage', body: { version: 1 } } }, 0);
  assert.equal(ready.disconnects.map((d) => d.peer), [4]);
  assert.match(ready.disconnects[0]!.reason, /version 1/);
});

test.run();
