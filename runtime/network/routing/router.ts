import {
  decodeMessage, encodeMessage, P2PMessageError, type MessageBody, type P2PMessage, type SignedMessage,
} from '../messages/index.js';
import { relayRule } from './relay-policy.js';
import { INFINITE_METRIC, LINK_COST, addMetric, betterThan, nextSeqno, seqnoBefore, type Feasibility } from './route-metrics.js';
import type { LogLevel, PeerId } from '../peer-io.js';
import type { ProducerName, RouterOptions, RoutingEvent, RoutingReady, RoutingTimerName } from './routing-io.js';

// psibase's shortest-path routing (docs/p2p.md §A, §1.3 step 2) as a deterministic state machine.
// Routes lead to producers only; every node routes. The tables follow psibase's: routes keyed by
// (producer, router, neighbour), the source table of the best feasibility seen per (producer,
// router), and the selected route per producer.

const PROTOCOL_VERSION = 0;
/** Our own seqno goes up at most once a second. */
const MIN_SEQNO_INTERVAL_MS = 1000;
/** A forwarded seqno request with the same seqno is not forwarded again within 30 s. */
const SEQNO_REQUEST_MEMORY_MS = 30_000;

interface Route {
  readonly router: bigint;
  readonly peer: PeerId;
  seqno: number;
  /** The metric the neighbour announced, without the link's cost. */
  metric: number;
}

interface Selected {
  readonly router: bigint;
  readonly peer: PeerId;
}

type RouteUpdate = MessageBody<'RouteUpdateMessage'>;
type SeqnoRequest = MessageBody<'RouteSeqnoRequest'>;

export class Router {
  private readonly routerId: bigint;
  private readonly verify: RouterOptions['verify'];
  private self: ProducerName | null = null;
  private producers = new Set<ProducerName>();
  private seqno = 0;
  private lastSeqnoUpdate: number | undefined;
  private seqnoUpdateWaiting = false;
  private readonly neighbours = new Set<PeerId>();
  /** Per producer, its routes through each (router, neighbour). */
  private readonly routes = new Map<ProducerName, Route[]>();
  /** Per producer and router, the best feasibility we announced. */
  private readonly sources = new Map<ProducerName, Map<bigint, Feasibility>>();
  private readonly selected = new Map<ProducerName, Selected>();
  private readonly recentSeqnoRequests = new Map<ProducerName, { seqno: number; time: number }>();
  private now = 0;
  private out: RoutingReady = emptyReady();

  constructor(options: RouterOptions) {
    this.routerId = BigInt.asUintN(64, options.routerId);
    this.verify = options.verify;
  }

  /** Applies one event at time `now` (the caller's milliseconds) and returns what to do. */
  step(event: RoutingEvent, now: number): RoutingReady {
    this.now = now;
    switch (event.type) {
      case 'linkUp': this.linkUp(event.peer); break;
      case 'linkDown': this.linkDown(event.peer); break;
      case 'receive': this.receive(event.peer, event.message); break;
      case 'producers': this.setProducers(new Set(event.producers)); break;
      case 'self': this.setSelf(event.name); break;
      case 'timer': this.timer(event.name); break;
      case 'sendTo': this.sendTo(event.producer, encodeMessage(event.message), event.afterBlock); break;
      case 'multicastProducers': {
        const frame = encodeMessage(event.message);
        for (const producer of this.selected.keys()) this.sendTo(producer, frame, event.afterBlock);
        break;
      }
    }
    const ready = this.out;
    this.out = emptyReady();
    return ready;
  }

  /** The neighbour a message to `producer` goes to next, if there is a route. */
  nextHop(producer: ProducerName): PeerId | undefined {
    return this.selected.get(producer)?.peer;
  }

  /** The producers a route reaches now. */
  reachable(): ProducerName[] {
    return [...this.selected.keys()];
  }

  /** The metric of the selected route to `producer` (links to it), if there is one. */
  distance(producer: ProducerName): number | undefined {
    const route = this.selectedRoute(producer);
    return route ? this.metricOf(route) : undefined;
  }

  private isProducer(name: ProducerName): boolean {
    return this.producers.has(name);
  }

  // ---- links ----

  private linkUp(peer: PeerId): void {
    this.send(peer, { kind: 'InitMessage', body: { version: PROTOCOL_VERSION } });
    this.neighbours.add(peer);
    this.sendRoutes(peer);
  }

  private linkDown(peer: PeerId): void {
    if (!this.neighbours.delete(peer)) return;
    for (const [producer, routes] of this.routes) {
      const kept = routes.filter((r) => r.peer !== peer);
      if (kept.length) this.routes.set(producer, kept);
      else this.routes.delete(producer);
    }
    for (const [producer, selected] of [...this.selected]) {
      if (selected.peer === peer) this.selectRoute(producer, peer);
    }
  }

  /** Our selected routes, then our own route if we are a producer. */
  private sendRoutes(peer: PeerId): void {
    for (const producer of this.selected.keys()) {
      const route = this.selectedRoute(producer);
      if (route) this.sendUpdate(peer, { producer, seqno: route.seqno, metric: this.metricOf(route), router: route.router });
    }
    if (this.self !== null && this.isProducer(this.self)) {
      this.sendUpdate(peer, { producer: this.self, seqno: this.seqno, metric: 0, router: this.routerId });
    }
  }

  // ---- producers ----

  private setProducers(producers: Set<ProducerName>): void {
    if (producers.size === this.producers.size && [...producers].every((p) => this.producers.has(p))) return;
    this.producers = producers;
    this.producersChanged();
  }

  private setSelf(name: ProducerName | null): void {
    if (name === this.self) return;
    this.self = name;
    this.producersChanged();
  }

  /** Drops what leads to non-producers or to us, announces us, and asks the neighbours for routes. */
  private producersChanged(): void {
    const stale = (p: ProducerName): boolean => !this.isProducer(p) || p === this.self;
    for (const producer of [...this.selected.keys()]) {
      if (stale(producer)) {
        this.selected.delete(producer);
        this.log('info', `removed the route to ${producer}`);
      }
    }
    for (const producer of [...this.routes.keys()]) if (stale(producer)) this.routes.delete(producer);
    for (const producer of [...this.sources.keys()]) if (stale(producer)) this.sources.delete(producer);
    if (this.self !== null && this.isProducer(this.self)) {
      this.multicastUpdate({ producer: this.self, seqno: this.seqno, metric: 0, router: this.routerId });
    }
    this.multicast({ kind: 'RequestRoutesMessage', body: {} });
  }

  // ---- receiving ----

  private receive(peer: PeerId, message: P2PMessage): void {
    if (!this.neighbours.has(peer)) {
      this.log('warning', 'message from a peer that is not linked; dropped', peer);
      return;
    }
    switch (message.kind) {
      case 'Unknown':
        return;
      case 'InitMessage':
        if (message.body.version !== PROTOCOL_VERSION) {
          this.out.disconnects.push({ peer, reason: `peer speaks P2P protocol version ${message.body.version}, not ${PROTOCOL_VERSION}` });
        }
        return;
      case 'RouteUpdateMessage': return this.receiveUpdate(peer, message.body);
      case 'RouteSeqnoRequest': return this.receiveSeqnoRequest(peer, message.body);
      case 'RequestRoutesMessage': return this.sendRoutes(peer);
      case 'RoutingEnvelope': return this.receiveEnvelope(peer, message.body);
      default:
        if ('signature' in message && !this.verified(message, peer)) return;
        this.out.delivered.push({ peer, message });
    }
  }

  private verified(message: SignedMessage, peer: PeerId): boolean {
    if (this.verify(message, peer)) return true;
    this.log('debug', `${message.kind} dropped: its signature does not verify`, peer);
    return false;
  }

  private receiveUpdate(peer: PeerId, msg: RouteUpdate): void {
    if (msg.producer === this.self) return;
    if (!this.isProducer(msg.producer)) {
      this.log('debug', `route to ${msg.producer} ignored: not an active producer`, peer);
      return;
    }
    const router = msg.router ?? 0n;
    const routes = this.routes.get(msg.producer) ?? [];
    const route = routes.find((r) => r.router === router && r.peer === peer);
    if (!route) {
      if (msg.metric === INFINITE_METRIC) return;
      routes.push({ router, peer, seqno: msg.seqno, metric: msg.metric });
      this.routes.set(msg.producer, routes);
      this.selectRoute(msg.producer, peer);
    } else if (route.metric !== msg.metric || route.seqno !== msg.seqno) {
      route.metric = msg.metric;
      route.seqno = msg.seqno;
      this.selectRoute(msg.producer, peer);
    }
  }

  private receiveSeqnoRequest(peer: PeerId, msg: SeqnoRequest): void {
    const current = this.currentUpdate(msg.producer);
    if (current && !seqnoBefore(current.seqno, msg.seqno)) {
      this.sendUpdate(peer, current);
    } else if (msg.producer === this.self) {
      this.incrementSeqno();
    } else if (msg.ttl >= 2) {
      this.forwardSeqnoRequest({ ...msg, ttl: msg.ttl - 1 });
    }
  }

  private receiveEnvelope(peer: PeerId, envelope: MessageBody<'RoutingEnvelope'>): void {
    let inner: P2PMessage;
    try {
      inner = decodeMessage(envelope.data);
    } catch (err) {
      if (!(err instanceof P2PMessageError)) throw err;
      this.out.disconnects.push({ peer, reason: `RoutingEnvelope to ${envelope.destination}: ${err.message}`, offence: true });
      return;
    }
    if (envelope.destination === this.self) {
      this.receive(peer, inner);
      return;
    }
    const rule = relayRule(inner);
    if (!rule.relay) {
      this.log('warning', `RoutingEnvelope to ${envelope.destination} holds ${inner.kind}, which is not relayed`, peer);
      return;
    }
    if ('signature' in inner && !this.verified(inner, peer)) return;
    const next = this.selected.get(envelope.destination);
    if (!next) {
      this.log('debug', `${inner.kind} to ${envelope.destination} discarded: no route`, peer);
      return;
    }
    this.send(next.peer, { kind: 'RoutingEnvelope', body: envelope }, rule.afterBlock);
  }

  // ---- sending to producers ----

  private sendTo(producer: ProducerName, inner: Uint8Array, afterBlock: Uint8Array | undefined): void {
    const next = this.selected.get(producer);
    if (!next) {
      this.log('debug', `message to ${producer} discarded: no route`);
      return;
    }
    this.send(next.peer, { kind: 'RoutingEnvelope', body: { destination: producer, data: inner } }, afterBlock);
  }

  // ---- route selection ----

  private metricOf(route: Route): number {
    return this.neighbours.has(route.peer) ? addMetric(route.metric, LINK_COST) : INFINITE_METRIC;
  }

  private selectedRoute(producer: ProducerName): Route | undefined {
    const selected = this.selected.get(producer);
    if (!selected) return undefined;
    return this.routes.get(producer)?.find((r) => r.router === selected.router && r.peer === selected.peer);
  }

  private isFeasible(producer: ProducerName, route: Route): boolean {
    if (route.metric === INFINITE_METRIC) return true;
    const source = this.sources.get(producer)?.get(route.router);
    return source === undefined || betterThan(route, source);
  }

  /** Chooses the best feasible route to `producer` after the route through `updatedPeer` changed. */
  private selectRoute(producer: ProducerName, updatedPeer: PeerId): void {
    let best: Route | undefined;
    let bestMetric = INFINITE_METRIC;
    for (const route of this.routes.get(producer) ?? []) {
      if (!this.isFeasible(producer, route)) continue;
      const metric = this.metricOf(route);
      if (metric < bestMetric) {
        best = route;
        bestMetric = metric;
      }
    }
    if (best) {
      this.useRoute(producer, best, bestMetric, updatedPeer);
      return;
    }
    const removed = this.selected.get(producer);
    if (!removed) return;
    this.selected.delete(producer);
    this.log('info', `no feasible route to ${producer}`);
    this.multicastUpdate({ producer, seqno: 0, metric: INFINITE_METRIC, router: removed.router });
    const source = this.sources.get(producer)?.get(removed.router);
    if (source) this.multicast({ kind: 'RouteSeqnoRequest', body: { producer, seqno: nextSeqno(source.seqno), ttl: 64 } });
  }

  private useRoute(producer: ProducerName, route: Route, metric: number, updatedPeer: PeerId): void {
    const previous = this.selected.get(producer);
    const changed = !previous || previous.router !== route.router || previous.peer !== route.peer;
    if (changed) this.selected.set(producer, { router: route.router, peer: route.peer });
    if (!changed && route.peer !== updatedPeer) return;
    this.log('info', `${changed ? 'new' : 'updated'} route to ${producer}: seqno ${route.seqno}, metric ${metric}`, route.peer);
    const feasibility = { seqno: route.seqno, metric };
    let sources = this.sources.get(producer);
    if (!sources) this.sources.set(producer, (sources = new Map()));
    const source = sources.get(route.router);
    if (!source || betterThan(feasibility, source)) sources.set(route.router, feasibility);
    this.multicastUpdate({ producer, seqno: route.seqno, metric, router: route.router });
  }

  /** Our update for `producer` when we have a usable route, else undefined. */
  private currentUpdate(producer: ProducerName): RouteUpdate | undefined {
    const route = this.selectedRoute(producer);
    if (!route) return undefined;
    const metric = this.metricOf(route);
    return metric === INFINITE_METRIC ? undefined : { producer, seqno: route.seqno, metric, router: route.router };
  }

  // ---- sequence numbers ----

  private incrementSeqno(): void {
    const last = this.lastSeqnoUpdate;
    // At or after the deadline (psibase: strictly after; a virtual clock fires exactly on it).
    if (last === undefined || this.now - last >= MIN_SEQNO_INTERVAL_MS) {
      this.seqno = nextSeqno(this.seqno);
      this.lastSeqnoUpdate = this.now;
      this.seqnoUpdateWaiting = false;
      if (this.self !== null) this.multicastUpdate({ producer: this.self, seqno: this.seqno, metric: 0, router: this.routerId });
    } else {
      this.seqnoUpdateWaiting = true;
      this.out.timers.push({ name: 'seqno', at: last + MIN_SEQNO_INTERVAL_MS });
    }
  }

  private timer(name: RoutingTimerName): void {
    if (name === 'seqno' && this.seqnoUpdateWaiting) this.incrementSeqno();
  }

  /** False for a request with the same seqno forwarded in the last 30 s. */
  private rememberSeqnoRequest(msg: SeqnoRequest): boolean {
    const recent = this.recentSeqnoRequests.get(msg.producer);
    if (recent && recent.seqno === msg.seqno && this.now - recent.time <= SEQNO_REQUEST_MEMORY_MS) return false;
    this.recentSeqnoRequests.set(msg.producer, { seqno: msg.seqno, time: this.now });
    return true;
  }

  /** Towards the producer: along the selected route, else along the best route we know of. */
  private forwardSeqnoRequest(msg: SeqnoRequest): void {
    if (!this.rememberSeqnoRequest(msg)) return;
    let next = this.selected.get(msg.producer)?.peer;
    if (next === undefined) {
      let bestMetric = INFINITE_METRIC;
      for (const route of this.routes.get(msg.producer) ?? []) {
        const metric = this.metricOf(route);
        if (metric < bestMetric) {
          bestMetric = metric;
          next = route.peer;
        }
      }
    }
    if (next !== undefined) this.send(next, { kind: 'RouteSeqnoRequest', body: msg });
  }

  // ---- output ----

  private send(peer: PeerId, message: P2PMessage, afterBlock?: Uint8Array): void {
    const frame = encodeMessage(message);
    this.out.sends.push(afterBlock ? { peer, frame, afterBlock } : { peer, frame });
  }

  private sendUpdate(peer: PeerId, update: RouteUpdate): void {
    this.send(peer, { kind: 'RouteUpdateMessage', body: update });
  }

  private multicast(message: P2PMessage): void {
    const frame = encodeMessage(message);
    for (const peer of this.neighbours) this.out.sends.push({ peer, frame });
  }

  private multicastUpdate(update: RouteUpdate): void {
    this.multicast({ kind: 'RouteUpdateMessage', body: update });
  }

  private log(level: LogLevel, text: string, peer?: PeerId): void {
    this.out.log.push(peer === undefined ? { level, text } : { level, peer, text });
  }
}

function emptyReady(): RoutingReady {
  return { sends: [], delivered: [], timers: [], disconnects: [], log: [] };
}
